// Paging a built conversation for the wire (items by offset and limit, every block's text cut to
// a number of characters) and the probability bins the view shades generated tokens with. Pure and
// small: the browser imports the bins from here without the conversation builder.
import { GENERATED_SHADES } from "../token-palette";
import type { ConversationBlock, ConversationItem, MaskSpan } from "@/lib/schema";

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

/**
 * Probability bins for shading generated tokens: the token view's bands (token-palette), so a
 * token has one shade, one legend and one contrast check on every tab.
 */
export const PROBABILITY_BINS = GENERATED_SHADES.map((s) => ({ min: s.minProb, label: s.label }));

/** A shaded token's colours (its band's), as an inline style; none for an unshaded token. */
export function binColours(bin: number): { backgroundColor: string; color: string } | undefined {
  const shade = GENERATED_SHADES[bin];
  return shade ? { backgroundColor: shade.bg, color: shade.fg } : undefined;
}

/** The bin of a generated token's log prob (0 = most probable); -1 without a log prob. */
export function probabilityBin(logProb: number | null): number {
  if (logProb === null || Number.isNaN(logProb)) return -1;
  const p = Math.exp(Math.min(0, logProb));
  return PROBABILITY_BINS.findIndex((b) => p >= b.min);
}
