// Runs of token ids as the UTF-8 bytes of their text, appended to one growing buffer: what search
// keeps of a rollout (lib/rollout/search-text). The bytes decode to ./text-of's text: each token's
// own bytes in turn, so a byte-level BPE token that splits a character joins its neighbours' when
// the whole is read; special tokens give their names; ids the vocabulary lacks give nothing. No
// string is made per token and no offsets are kept (find needs them; search does not). Each id's
// bytes are looked up once per decoder. Not responsible for display pieces (./decoder).
import type { TokenDecoder } from "./decoder";
import { bytesOfEscaped } from "./text-of";

const EMPTY = new Uint8Array(0);
/** Ids past this are looked up each time (no vocabulary we know is this large). */
const MEMO_IDS = 1 << 20;
/** Each decoder's bytes by id, filled as ids are met. */
const memos = new WeakMap<TokenDecoder, Array<Uint8Array | undefined>>();
const encoder = new TextEncoder();

function bytesOfToken(decoder: TokenDecoder, id: number): Uint8Array {
  const piece = decoder.piece(id);
  if (piece.kind === "unknown") return EMPTY;
  if (piece.kind !== "bytes") return encoder.encode(piece.text);
  const out: number[] = [];
  bytesOfEscaped(piece.text, out);
  return Uint8Array.from(out);
}

/** The id's bytes, kept in `memo` when the id is a small whole number. */
function remember(
  memo: Array<Uint8Array | undefined>,
  decoder: TokenDecoder,
  id: number,
): Uint8Array {
  const bytes = bytesOfToken(decoder, id);
  if (Number.isInteger(id) && id >= 0 && id < MEMO_IDS) {
    // Filled up to the id first, so the array stays dense (a sparse one is a slow dictionary).
    while (memo.length <= id) memo.push(undefined);
    memo[id] = bytes;
  }
  return bytes;
}

/** A text's UTF-8 bytes, built by appending token runs and strings. */
export class Utf8Text {
  private buf = new Uint8Array(1 << 14);
  /** Bytes written so far. */
  length = 0;

  private room(n: number): Uint8Array {
    if (this.length + n > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
      next.set(this.buf.subarray(0, this.length));
      this.buf = next;
    }
    return this.buf;
  }

  /** Appends the text of `ids` as `decoder` reads them. */
  appendIds(decoder: TokenDecoder, ids: ArrayLike<number>): void {
    let memo = memos.get(decoder);
    if (!memo) memos.set(decoder, (memo = []));
    let buf = this.room(ids.length * 4);
    let at = this.length;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      let bytes = id < memo.length ? memo[id] : undefined;
      if (bytes === undefined) bytes = remember(memo, decoder, id);
      const n = bytes.length;
      if (at + n > buf.length) {
        this.length = at;
        buf = this.room(n + (ids.length - i) * 4);
      }
      // Most tokens are a few bytes: a loop beats set() on them.
      if (n < 16) for (let k = 0; k < n; k++) buf[at + k] = bytes[k] as number;
      else buf.set(bytes, at);
      at += n;
    }
    this.length = at;
  }

  /** Appends a string's UTF-8 bytes. */
  appendText(text: string): void {
    const bytes = encoder.encode(text);
    this.room(bytes.length).set(bytes, this.length);
    this.length += bytes.length;
  }

  /** The bytes written (a view, valid until the next append). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}
