// Token digest (capture-format.md §5.1): sha256("nemo-gym-tokens" ++ 0x01 ++ u64be count ++ u64be ids).
// The empty sequence hashes the domain bytes alone. Used to verify recorded parent links.
import { createHash } from "node:crypto";

const DOMAIN = Buffer.from("nemo-gym-tokens", "ascii");
const DIGEST_VERSION = 1;
const TWO_32 = 4294967296;

/** Digest of `tokens[start:end]` (defaults: the whole array). Throws on a negative or non-integer id. */
export function tokenDigest(tokens: readonly number[], start = 0, end = tokens.length): string {
  const hash = createHash("sha256").update(DOMAIN);
  const count = end - start;
  if (count <= 0) return hash.digest("hex");
  const buf = Buffer.allocUnsafe(9 + 8 * count);
  buf.writeUInt8(DIGEST_VERSION, 0);
  buf.writeUInt32BE(Math.floor(count / TWO_32), 1);
  buf.writeUInt32BE(count >>> 0, 5);
  let off = 9;
  for (let i = start; i < end; i++) {
    const t = tokens[i] as number;
    if (!Number.isSafeInteger(t) || t < 0) throw new RangeError(`token id ${t} at index ${i} cannot be digested`);
    buf.writeUInt32BE(Math.floor(t / TWO_32), off);
    buf.writeUInt32BE(t >>> 0, off + 4);
    off += 8;
  }
  return hash.update(buf).digest("hex");
}
