// The token view's line model: a sequence as text lines for a virtual list. Each segment (a call's
// prompt, interstitial or generation) opens with a header; its loaded tokens are split into lines
// at newline tokens and at a cap of tokens per line; unloaded windows are placeholders. It does not
// fetch, measure or colour anything (see token-palette.ts for colours).
import type { SegmentKind, TokenSegment } from "@/lib/schema";
import type { SequenceTraining } from "./sequence-training";

/** A line never holds more tokens than this, so a 10k-token text without newlines stays bounded. */
export const LINE_CAP = 256;

/**
 * Items of the virtual list, in sequence order; `start`/`end` are sequence positions, end exclusive
 * (a header is empty: start = end = its segment's start).
 * - `lead`: the line opens with the text after the last newline of token `start - 1` (which ended
 *   the line above), so indentation sits on the line it indents.
 * - `cut`: the last token shows only up to its last newline; its tail leads the next line.
 * - `wrapped`: the line continues the one above, split by the cap, not by a newline.
 */
export type TokenItem =
  | { kind: "header"; segment: number; start: number; end: number }
  | {
      kind: "line";
      segment: number;
      start: number;
      end: number;
      lead: boolean;
      cut: boolean;
      wrapped: boolean;
    }
  | { kind: "placeholder"; segment: number; start: number; end: number };

export type TokenLine = Extract<TokenItem, { kind: "line" }>;

export interface LineInput {
  segments: readonly TokenSegment[];
  /** Size of the paged token windows: window w holds positions [w * size, (w + 1) * size). */
  windowSize: number;
  /** Text of a loaded token (null when the sequence is not decoded); undefined when not loaded. */
  textAt: (pos: number) => string | null | undefined;
  cap?: number;
}

/** Every segment's header, then its lines where loaded and placeholders (one per window) where not. */
export function tokenItems({
  segments,
  windowSize,
  textAt,
  cap = LINE_CAP,
}: LineInput): TokenItem[] {
  const items: TokenItem[] = [];
  segments.forEach((s, segment) => {
    const end = s.start + s.length;
    items.push({ kind: "header", segment, start: s.start, end: s.start });
    let p = s.start;
    while (p < end) {
      const windowEnd = (q: number) => Math.min(end, (Math.floor(q / windowSize) + 1) * windowSize);
      if (textAt(p) === undefined) {
        items.push({ kind: "placeholder", segment, start: p, end: windowEnd(p) });
        p = windowEnd(p);
        continue;
      }
      // Loaded windows next to each other form one run, so a line can cross a window boundary.
      let runEnd = windowEnd(p);
      while (runEnd < end && textAt(runEnd) !== undefined) runEnd = windowEnd(runEnd);
      pushLines(items, segment, p, runEnd, cap, textAt);
      p = runEnd;
    }
  });
  return items;
}

function pushLines(
  items: TokenItem[],
  segment: number,
  from: number,
  to: number,
  cap: number,
  textAt: (pos: number) => string | null | undefined,
): void {
  let start = from;
  let lead = false;
  let wrapped = false;
  for (let q = from; q < to; q++) {
    const text = textAt(q) ?? "";
    const nl = text.lastIndexOf("\n");
    const end = q + 1;
    if (nl < 0 && end - start < cap && end < to) continue;
    // A tail after the newline moves to the next line, unless this line is the run's last.
    const cut = nl >= 0 && nl < text.length - 1 && end < to;
    items.push({ kind: "line", segment, start, end, lead, cut, wrapped });
    wrapped = nl < 0 && end < to;
    lead = cut;
    start = end;
  }
}

/** Index of the item holding sequence position `pos` (binary search; -1 when out of range). */
export function itemOfPosition(items: readonly TokenItem[], pos: number): number {
  let lo = 0;
  let hi = items.length - 1;
  let best = -1;
  // Starts never decrease along the items, and a header shares its start with the item after it,
  // so the last item starting at or before `pos` is never a header of a non-empty segment.
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((items[mid] as TokenItem).start <= pos) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const item = items[best];
  return item && pos < item.end ? best : -1;
}

/** Where a call's first segment starts (its own first token); null when it is not in the sequence. */
export function callStart(segments: readonly TokenSegment[], callId: string): number | null {
  return segments.find((s) => s.call === callId)?.start ?? null;
}

/** The call whose segment holds position `pos`; null when no segment of the sequence does. */
export function callAt(segments: readonly TokenSegment[], pos: number): string | null {
  return segments.find((s) => pos >= s.start && pos < s.start + s.length)?.call ?? null;
}

/**
 * The "jump to call" select's value: the selected call when the sequence has tokens of it, else ""
 * (its "—" option), as a select holds no value it has no option for.
 */
export function jumpValue(segments: readonly TokenSegment[], call: string | null): string {
  return call !== null && segments.some((s) => s.call === call) ? call : "";
}

/** The header of a call's first segment, to jump to it; -1 when the call is not in the sequence. */
export function itemOfCall(
  items: readonly TokenItem[],
  segments: readonly TokenSegment[],
  callId: string,
): number {
  return items.findIndex((r) => r.kind === "header" && segments[r.segment]?.call === callId);
}

/**
 * The position one line up (`dir` -1) or down (+1) from `pos`, at the same token index in the line
 * (clamped to its length). Headers are skipped; a placeholder is entered at its nearest end. At
 * the first or last line, `pos` itself.
 */
export function moveLine(items: readonly TokenItem[], pos: number, dir: 1 | -1): number {
  const at = itemOfPosition(items, pos);
  const from = items[at];
  if (!from) return pos;
  for (let j = at + dir; j >= 0 && j < items.length; j += dir) {
    const to = items[j] as TokenItem;
    if (to.kind === "header") continue;
    if (to.kind === "placeholder") return dir > 0 ? to.start : to.end - 1;
    return Math.min(to.end - 1, to.start + (pos - from.start));
  }
  return pos;
}

/**
 * Where an arrow key moves the cursor: ←→ a token, ↑↓ a line; null for other keys. With no
 * cursor yet, the first key selects `start` (the token the view was opened at, else the first).
 */
export function moveCursor(
  items: readonly TokenItem[],
  from: number | null,
  key: string,
  start = 0,
): number | null {
  if (!key.startsWith("Arrow")) return null;
  if (from === null) return start;
  if (key === "ArrowRight") return from + 1;
  if (key === "ArrowLeft") return from - 1;
  if (key === "ArrowDown") return moveLine(items, from, 1);
  if (key === "ArrowUp") return moveLine(items, from, -1);
  return null;
}

/**
 * A segment header's words. Generated text is called trained only when the viewed sequence's
 * training (./sequence-training) says so; otherwise it says why not.
 */
/** A prompt's tokens past the inherited prefix (the routes' `interstitial`), in a user's words. */
export const NEW_INPUT_WORDS = "new input: tool results, turns";

export function segmentLabel(kind: SegmentKind, training: SequenceTraining): string {
  if (kind === "inherited") return "inherited prefix (input, mask 0)";
  // Between the last generation and this call's: tool results, user turns, template tokens.
  if (kind === "interstitial") return `${NEW_INPUT_WORDS} (re-fed, mask 0)`;
  if (kind !== "generated") return `${kind} (re-fed, mask 0)`;
  return training.words ? `generated (mask 1, ${training.words})` : "generated (mask 1)";
}

/** Whitespace and control characters made visible; the rest of the text is unchanged. */
export function visibleText(text: string): string {
  return text
    .replace(/\n/g, "↵")
    .replace(/\t/g, "⇥")
    .replace(/\r/g, "␍")
    .replace(/ /g, "·")
    .replace(
      /[\u0000-\u0008\u000b-\u001f\u007f]/g,
      (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
    );
}

/** The part of a token's text shown on a line it ends (`cut`): up to and including its last newline. */
export function headOfText(text: string): string {
  return text.slice(0, text.lastIndexOf("\n") + 1);
}

/** The part shown at the start of the next line (`lead`): what follows its last newline. */
export function tailOfText(text: string): string {
  return text.slice(text.lastIndexOf("\n") + 1);
}

/**
 * The token info line's tokens: the selected one stays in front while another is hovered (the
 * hovered one comes second); with nothing selected, the hovered one alone.
 */
export function infoTokens(
  selected: number | null,
  hovered: number | null,
): { main: number | null; hover: number | null } {
  if (selected === null) return { main: hovered, hover: null };
  return { main: selected, hover: hovered === selected ? null : hovered };
}

/** What the token tab says when the rollout has no chain: that, and why, in the verdict's words. */
export function noChainWords(
  reasons: ReadonlyArray<{ severity: string; sentence: string }>,
  facts: { captured: number; tokenFile: boolean; error: string | null },
): { title: string; why: string[] } {
  const { captured, tokenFile, error } = facts;
  const calls = `${captured} captured call${captured === 1 ? "" : "s"}`;
  const title =
    captured === 0
      ? "No chain to show: this rollout has no captured call with a token entry."
      : `No chain to show: the builder made no chain from the ${calls}.`;
  const why = reasons.filter((r) => r.severity === "masked").map((r) => r.sentence);
  if (why.length > 0) return { title, why };
  // No mask reason to quote: say what the store holds.
  if (captured === 0) {
    const store = tokenFile
      ? "The token file holds no entry: no model call of this rollout was captured."
      : "There is no token file for this rollout: its model calls were not captured.";
    return { title, why: [store] };
  }
  return {
    title,
    why: [error ? `The builder said: \`${error}\`.` : "The verdict gives no reason."],
  };
}
