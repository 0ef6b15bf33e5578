// Runs of token ids as the UTF-8 bytes of their text, appended to one growing buffer: what search
// keeps of a rollout (lib/rollout/search-text). The bytes decode to ./text-of's text: each token's
// own bytes in turn, so a byte-level BPE token that splits a character joins its neighbours' when
// the whole is read; special tokens give their names; ids the vocabulary lacks give nothing. No
// string is made per token and no offsets are kept (find needs them; search does not). Each id's
// bytes are looked up once per decoder and kept in one flat table (every token's bytes in one
// buffer, found by id): a run of ids is then copied without a pointer per token to follow. Not
// responsible for display pieces (./decoder).
import type { TokenDecoder } from "./decoder";
import { bytesOfEscaped } from "./text-of";

const EMPTY = new Uint8Array(0);
/** Ids past this are looked up each time (no vocabulary we know is this large). */
const MEMO_IDS = 1 << 20;
const encoder = new TextEncoder();

/** A decoder's token bytes by id, filled as ids are met: `at[id]` into `bytes` (-1: not yet). */
class ByteTable {
  at = new Int32Array(1 << 12).fill(-1);
  length = new Uint16Array(1 << 12);
  bytes = new Uint8Array(1 << 16);
  used = 0;

  constructor(private readonly decoder: TokenDecoder) {
    // A decoder with every ordinary token's bytes in one table gives them all at once (a copy: the
    // table grows here as other ids, special tokens, are met).
    const t = decoder.tokenBytes;
    if (!t) return;
    this.at = new Int32Array(Math.max(t.at.length, this.at.length)).fill(-1);
    this.at.set(t.at);
    this.length = new Uint16Array(this.at.length);
    this.length.set(t.length);
    this.bytes = new Uint8Array(Math.max(t.bytes.length * 2, this.bytes.length));
    this.bytes.set(t.bytes);
    this.used = t.bytes.length;
  }

  /** Makes room for ids below `id + 1`; false past MEMO_IDS. */
  fits(id: number): boolean {
    if (id < this.at.length) return true;
    if (id >= MEMO_IDS) return false;
    let size = this.at.length;
    while (size <= id) size *= 2;
    const at = new Int32Array(size).fill(-1);
    at.set(this.at);
    const length = new Uint16Array(size);
    length.set(this.length);
    this.at = at;
    this.length = length;
    return true;
  }

  /** Looks the id up and keeps its bytes (the id fits). */
  learn(id: number): void {
    const b = bytesOfToken(this.decoder, id);
    // A token longer than a length slot holds (none we know) is cut: search text, not the tokens.
    const n = Math.min(b.length, 0xffff);
    if (this.used + n > this.bytes.length) {
      const next = new Uint8Array(Math.max(this.bytes.length * 2, this.used + n));
      next.set(this.bytes.subarray(0, this.used));
      this.bytes = next;
    }
    this.bytes.set(b.subarray(0, n), this.used);
    this.at[id] = this.used;
    this.length[id] = n;
    this.used += n;
  }
}
const tables = new WeakMap<TokenDecoder, ByteTable>();

function bytesOfToken(decoder: TokenDecoder, id: number): Uint8Array {
  const piece = decoder.piece(id);
  if (piece.kind === "unknown") return EMPTY;
  if (piece.kind !== "bytes") return encoder.encode(piece.text);
  const out: number[] = [];
  bytesOfEscaped(piece.text, out);
  return Uint8Array.from(out);
}

/** One buffer for every text built on this thread, grown as needed (`bytes()` is a view of it). */
let shared = new Uint8Array(1 << 16);

/**
 * A text's UTF-8 bytes, built by appending token runs and strings. Texts share one buffer per
 * thread: a new text starts over it, so its bytes are copied out before the next is begun.
 */
export class Utf8Text {
  private buf = shared;
  /** Bytes written so far. */
  length = 0;

  private room(n: number): Uint8Array {
    if (this.length + n > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
      next.set(this.buf.subarray(0, this.length));
      this.buf = shared = next;
    }
    return this.buf;
  }

  /** Appends the text of `ids` from `from` on, as `decoder` reads them. */
  appendIds(decoder: TokenDecoder, ids: ArrayLike<number>, from = 0): void {
    let table = tables.get(decoder);
    if (!table) tables.set(decoder, (table = new ByteTable(decoder)));
    let buf = this.room((ids.length - from) * 4);
    let at = this.length;
    for (let i = from; i < ids.length; i++) {
      const id = ids[i] as number;
      let src: Uint8Array;
      let s: number;
      let n: number;
      if (Number.isInteger(id) && id >= 0 && table.fits(id)) {
        if ((table.at[id] as number) < 0) table.learn(id);
        src = table.bytes;
        s = table.at[id] as number;
        n = table.length[id] as number;
      } else {
        src = bytesOfToken(decoder, id);
        s = 0;
        n = src.length;
      }
      if (at + n > buf.length) {
        this.length = at;
        buf = this.room(n + (ids.length - i) * 4);
      }
      // Most tokens are a few bytes: a loop beats set() on them.
      if (n < 16) for (let k = 0; k < n; k++) buf[at + k] = src[s + k] as number;
      else buf.set(src.subarray(s, s + n), at);
      at += n;
    }
    this.length = at;
  }

  /** Appends one byte (an ASCII character). */
  appendByte(byte: number): void {
    this.room(1)[this.length++] = byte;
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
