// The words of a diff: the text on each side of a token position, a message's first words, and
// each run of a token diff as text, decoded with the side's tokenizer (lib/tokens textOf, so a
// character split across tokens stays whole) or shown as ids without one. Pure; not responsible
// for what is compared (./align) or for reading rollouts (./rollouts).
import type { DiffContext } from "@/lib/schema";
import { textOf, type TokenDecoder } from "@/lib/tokens";
import type { TokenOp } from "./align";

/** Tokens decoded on each side of the first divergence. */
export const CONTEXT_TOKENS = 40;
const PREVIEW_TOKENS = 48;
const PREVIEW_CHARS = 120;
/** A "same" run of a token diff keeps this many characters at each end. */
const SAME_EDGE_CHARS = 120;
/** A removed or added run keeps this many characters. */
const CHANGE_CHARS = 4_000;

/** The text of `ids` and where each token starts in it; ids as numbers without a tokenizer. */
function decoded(decoder: TokenDecoder | null, ids: Int32Array) {
  if (decoder) return textOf(decoder, ids);
  const starts = new Int32Array(ids.length);
  let text = "";
  ids.forEach((id, i) => {
    starts[i] = text.length;
    text += `${id} `;
  });
  return { text, starts };
}

/** The text of the CONTEXT_TOKENS tokens before `position`, of its token, and of those after. */
export function textAround(
  decoder: TokenDecoder | null,
  ids: Int32Array,
  position: number,
): DiffContext {
  const from = Math.max(0, position - CONTEXT_TOKENS);
  const to = Math.min(ids.length, position + CONTEXT_TOKENS);
  const { text, starts } = decoded(decoder, ids.subarray(from, to));
  const at = (i: number) => (i - from < starts.length ? (starts[i - from] as number) : text.length);
  const [cut, next] = [at(position), at(position + 1)];
  return { before: text.slice(0, cut), token: text.slice(cut, next), after: text.slice(next) };
}

/** A message's first words on one line. */
export function previewOf(decoder: TokenDecoder | null, ids: Int32Array): string {
  const line = decoded(decoder, ids.subarray(0, PREVIEW_TOKENS)).text.replace(/\s+/g, " ").trim();
  return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
}

export interface OpText {
  text: string;
  clipped: boolean;
}

/**
 * Each op's text: a's tokens for "same" and "removed", b's for "added" (positions relative to the
 * messages `a` and `b`); a long "same" run keeps its two ends, a long change its start.
 */
export function opTexts(
  decoders: { a: TokenDecoder | null; b: TokenDecoder | null },
  a: Int32Array,
  b: Int32Array,
  ops: readonly TokenOp[],
): OpText[] {
  const sides = { a: decoded(decoders.a, a), b: decoded(decoders.b, b) };
  return ops.map((op) => {
    const side = op.kind === "added" ? sides.b : sides.a;
    const from = op.kind === "added" ? op.b : op.a;
    const end = from + op.length;
    const start = side.starts[from] ?? side.text.length;
    const text = side.text.slice(start, end < side.starts.length ? side.starts[end] : undefined);
    if (op.kind === "same" && text.length > 2 * SAME_EDGE_CHARS + 1)
      return {
        text: `${text.slice(0, SAME_EDGE_CHARS)}…${text.slice(-SAME_EDGE_CHARS)}`,
        clipped: true,
      };
    if (text.length > CHANGE_CHARS)
      return { text: `${text.slice(0, CHANGE_CHARS)}…`, clipped: true };
    return { text, clipped: false };
  });
}
