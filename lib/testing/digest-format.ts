// The token digest (docs/capture-format.md §5.1) written out with BigInt, as the tests' independent
// reference: the domain, then version 1, the u64 big-endian count and every id as u64 big-endian.
import { createHash } from "node:crypto";

export function digestByTheFormat(ids: readonly number[]): string {
  const h = createHash("sha256").update(Buffer.from("nemo-gym-tokens", "ascii"));
  if (ids.length === 0) return h.digest("hex");
  const b = Buffer.alloc(9 + 8 * ids.length);
  b[0] = 1;
  b.writeBigUInt64BE(BigInt(ids.length), 1);
  ids.forEach((t, i) => b.writeBigUInt64BE(BigInt(t), 9 + 8 * i));
  return h.update(b).digest("hex");
}
