// Token digest (docs/capture-format.md §5.1): sha256("nemo-gym-tokens" ++ 0x01 ++ u64be count ++ u64be ids).
// The empty sequence hashes the domain bytes alone. Used to verify recorded parent links.
// Digests computed ahead (./digest-ahead) are answered by the very array and length; anything
// else is hashed here, synchronously.
import { createHash } from "node:crypto";
import type { TokenIds } from "@/lib/schema";

export const DOMAIN = Buffer.from("nemo-gym-tokens", "ascii");
const DIGEST_VERSION = 1;
const TWO_32 = 4294967296;

// One growable scratch buffer: digests are synchronous, so it is never shared between calls.
let scratch = new ArrayBuffer(1 << 16);

/** Digests of `tokens[0:length]` computed ahead by prehashDigests: array -> length -> hex. */
const ahead = new WeakMap<TokenIds, Map<number, string>>();

/** Digest of `tokens[start:end]` (defaults: the whole array). Throws on a negative or non-integer id. */
export function tokenDigest(tokens: TokenIds, start = 0, end = tokens.length): string {
  const known = start === 0 ? ahead.get(tokens)?.get(end) : undefined;
  if (known !== undefined) return known;
  const hash = createHash("sha256").update(DOMAIN);
  const count = end - start;
  if (count <= 0) return hash.digest("hex");
  hash.update(header(count));
  return hash.update(idBytes(tokens, start, end)).digest("hex");
}

/** The version byte and the u64 big-endian count. */
export function header(count: number): Uint8Array {
  const view = new DataView(new ArrayBuffer(9));
  view.setUint8(0, DIGEST_VERSION);
  view.setUint32(1, Math.floor(count / TWO_32));
  view.setUint32(5, count >>> 0);
  return new Uint8Array(view.buffer);
}

/** Remembers the digest of `tokens[0:length]` computed ahead (./digest-ahead) for tokenDigest. */
export function rememberDigest(tokens: TokenIds, length: number, hex: string): void {
  let byLength = ahead.get(tokens);
  if (!byLength) ahead.set(tokens, (byLength = new Map()));
  byLength.set(length, hex);
}

/** Whether tokenDigest knows `tokens[0:length]` already. */
export const digestKnown = (tokens: TokenIds, length: number): boolean =>
  ahead.get(tokens)?.has(length) ?? false;

/** The ids as u64 big-endian, in the scratch buffer (valid until the next call). */
function idBytes(tokens: TokenIds, start: number, end: number): Buffer {
  const bytes = 8 * (end - start);
  if (scratch.byteLength < bytes)
    scratch = new ArrayBuffer(Math.max(bytes, scratch.byteLength * 2));
  const out = Buffer.from(scratch, 0, bytes);
  return fastIdBytes(tokens, start, end, out) ? out : idBytesSlow(tokens, start, end, out);
}

/**
 * Ids below 2^32 (every real vocabulary) into `out` as u64 big-endian: [0, id] as native words, then
 * each word byte-swapped at once, which on a little-endian machine is the big-endian u64. False (out
 * partly written) at the first other id, or on a big-endian machine: the caller uses idBytesSlow.
 */
export function fastIdBytes(tokens: TokenIds, start: number, end: number, out: Buffer) {
  if (!LITTLE_ENDIAN || out.byteOffset % 4 !== 0) return false;
  const words = new Uint32Array(out.buffer, out.byteOffset, 2 * (end - start));
  let w = 0;
  for (let i = start; i < end; i++) {
    const t = tokens[i] as number;
    if (!(t >= 0 && t <= 0xffffffff && Math.floor(t) === t)) return false;
    words[w] = 0;
    words[w + 1] = t;
    w += 2;
  }
  out.swap32();
  return true;
}

export function idBytesSlow(tokens: TokenIds, start: number, end: number, out: Buffer): Buffer {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let off = 0;
  for (let i = start; i < end; i++) {
    const t = tokens[i] as number;
    if (!Number.isSafeInteger(t) || t < 0)
      throw new RangeError(`token id ${t} at index ${i} cannot be digested`);
    view.setUint32(off, Math.floor(t / TWO_32));
    view.setUint32(off + 4, t >>> 0);
    off += 8;
  }
  return out;
}

export const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
