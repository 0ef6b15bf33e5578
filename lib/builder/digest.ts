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
  const bytes = 9 + 8 * count;
  if (scratch.byteLength < bytes)
    scratch = new ArrayBuffer(Math.max(bytes, scratch.byteLength * 2));
  const view = new DataView(scratch);
  view.setUint8(0, DIGEST_VERSION);
  view.setUint32(1, Math.floor(count / TWO_32));
  view.setUint32(5, count >>> 0);
  let off = 9;
  for (let i = start; i < end; i++) {
    const t = tokens[i] as number;
    if (!Number.isSafeInteger(t) || t < 0)
      throw new RangeError(`token id ${t} at index ${i} cannot be digested`);
    view.setUint32(off, Math.floor(t / TWO_32));
    view.setUint32(off + 4, t >>> 0);
    off += 8;
  }
  return hash.update(new Uint8Array(scratch, 0, bytes)).digest("hex");
}
