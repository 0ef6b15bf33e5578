// Paging a built conversation for the wire (items by offset and limit, every block's text cut to
// a number of characters) and the probability bins the view shades generated tokens with. Pure and
// small: the browser imports the bins from here without the conversation builder.
import type { ConversationBlock, ConversationItem, MaskSpan } from "@/lib/schema/api-conversation";

/** Items [offset, offset + limit), every block's text cut to `clip` characters. */
export function pageConversation(
  conv: { items: readonly ConversationItem[] },
  offset: number,
  limit: number,
  clip: number,
): ConversationItem[] {
  return conv.items
    .slice(offset, offset + limit)
    .map((it) =>
      it.kind === "message" ? { ...it, blocks: it.blocks.map((b) => clipBlock(b, clip)) } : it,
    );
}

function clipBlock(b: ConversationBlock, clip: number): ConversationBlock {
  if (b.chars <= clip) return b;
  const spans: MaskSpan[] = [];
  let left = clip;
  for (const s of b.spans) {
    if (left <= 0) break;
    let cut = Math.min(left, s.text.length);
    // Never split a surrogate pair.
    if (cut < s.text.length && cut > 0 && /[\uD800-\uDBFF]/.test(s.text[cut - 1] as string)) cut--;
    spans.push(cut === s.text.length ? s : { ...s, text: s.text.slice(0, cut) });
    left -= s.text.length;
  }
  return { ...b, spans, truncated: true };
}

/** Probability bins for shading generated tokens: few, named and legible (each has its legend). */
export const PROBABILITY_BINS = [
  { min: 0.9, label: "p ≥ 0.9" },
  { min: 0.5, label: "0.5–0.9" },
  { min: 0.1, label: "0.1–0.5" },
  { min: 0.01, label: "0.01–0.1" },
  { min: 0, label: "p < 0.01" },
] as const;

/** The bin of a generated token's log prob (0 = most probable); -1 without a log prob. */
export function probabilityBin(logProb: number | null): number {
  if (logProb === null || Number.isNaN(logProb)) return -1;
  const p = Math.exp(Math.min(0, logProb));
  return PROBABILITY_BINS.findIndex((b) => p >= b.min);
}
