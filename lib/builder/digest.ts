// Token digest (capture-format.md §5.1): sha256("nemo-gym-tokens" ++ 0x01 ++ u64be count ++ u64be ids).
// The empty sequence hashes the domain bytes alone. Used to verify recorded parent links.
import { createHash } from "node:crypto";

const DOMAIN = Buffer.from("nemo-gym-tokens", "ascii");
const DIGEST_VERSION = 1;
const TWO_32 = 4294967296;

// One growable scratch buffer: digests are synchronous, so it is never shared between calls.
let scratch = new ArrayBuffer(1 << 16);

/** Digest of `tokens[start:end]` (defaults: the whole array). Throws on a negative or non-integer id. */
export function tokenDigest(tokens: readonly number[], start = 0, end = tokens.length): string {
  const hash = createHash("sha256").update(DOMAIN);
  const count = end - start;
  if (count <= 0) return hash.digest("hex");
  const header = new DataView(new ArrayBuffer(9));
  header.setUint8(0, DIGEST_VERSION);
  header.setUint32(1, Math.floor(count / TWO_32));
  header.setUint32(5, count >>> 0);
  hash.update(new Uint8Array(header.buffer));
  return hash.update(idBytes(tokens, start, end)).digest("hex");
}

/** The ids as u64 big-endian, in the scratch buffer (valid until the next call). */
function idBytes(tokens: readonly number[], start: number, end: number): Uint8Array {
  const bytes = 8 * (end - start);
  if (scratch.byteLength < bytes)
    scratch = new ArrayBuffer(Math.max(bytes, scratch.byteLength * 2));
  // Ids below 2^32 (every real vocabulary): [0, id] as native words, then each word byte-swapped
  // at once, which on a little-endian machine is the big-endian u64. Anything else: DataView.
  const words = new Uint32Array(scratch, 0, bytes / 4);
  const out = Buffer.from(scratch, 0, bytes);
  let w = 0;
  for (let i = start; i < end; i++) {
    const t = tokens[i] as number;
    if (!(t >= 0 && t <= 0xffffffff && Math.floor(t) === t) || !LITTLE_ENDIAN)
      return idBytesSlow(tokens, start, end, out);
    words[w] = 0;
    words[w + 1] = t;
    w += 2;
  }
  return out.swap32();
}

function idBytesSlow(tokens: readonly number[], start: number, end: number, out: Buffer): Buffer {
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

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
