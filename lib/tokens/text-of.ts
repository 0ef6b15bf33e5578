// A run of token ids as one text with the character offset each token starts at: what search
// indexes and what find matches against, so a match's characters map back to token positions.
// A token whose bytes are not UTF-8 alone (byte-level BPE splits a character) is joined with its
// neighbours' bytes and decoded together; every token of such a group starts at the group's start.
// Not responsible for which ids make up a text (lib/rollout/search-text, lib/inspect/find).
import type { TokenDecoder } from "./decoder";

export interface DecodedText {
  text: string;
  /** starts[i] is the offset in `text` where token i begins. */
  starts: Int32Array;
}

const lenient = new TextDecoder("utf-8");

/** The bytes an escaped piece stands for (lib/tokens/decoder escapeBytes, read back). */
export function bytesOfEscaped(text: string, out: number[]): void {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\" && text[i + 1] === "x" && /^[0-9A-F]{2}$/.test(text.slice(i + 2, i + 4))) {
      out.push(parseInt(text.slice(i + 2, i + 4), 16));
      i += 3;
    } else out.push(text.charCodeAt(i) & 0xff);
  }
}

/** The ids' text and each token's start offset (unknown ids add nothing). */
export function textOf(decoder: TokenDecoder, ids: ArrayLike<number>): DecodedText {
  const starts = new Int32Array(ids.length);
  const parts: string[] = [];
  let length = 0;
  const pending: number[] = [];
  let pendingFrom = -1;
  const flush = () => {
    if (pendingFrom < 0) return;
    const text = lenient.decode(Uint8Array.from(pending));
    parts.push(text);
    length += text.length;
    pending.length = 0;
    pendingFrom = -1;
  };
  for (let i = 0; i < ids.length; i++) {
    const piece = decoder.piece(ids[i] as number);
    if (piece.kind === "bytes") {
      if (pendingFrom < 0) pendingFrom = length;
      starts[i] = pendingFrom;
      bytesOfEscaped(piece.text, pending);
      continue;
    }
    flush();
    starts[i] = length;
    if (piece.kind === "unknown") continue;
    parts.push(piece.text);
    length += piece.text.length;
  }
  flush();
  return { text: parts.join(""), starts };
}

/** The index of the token holding character `at` (the last whose start is at or before it). */
export function tokenAt(starts: Int32Array, at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  if (hi < 0) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
