// The token digest (capture-format.md §5.1) against the format written out with BigInt: the domain,
// then version 1, the u64 big-endian count and every id as u64 big-endian. Covers the fast path
// (ids below 2^32) and the slow one (ids up to 2^53 − 1) and the refusals.
import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { tokenDigest } from "./digest";

function byTheFormat(ids: number[]): string {
  const h = createHash("sha256").update(Buffer.from("nemo-gym-tokens", "ascii"));
  if (ids.length === 0) return h.digest("hex");
  const b = Buffer.alloc(9 + 8 * ids.length);
  b[0] = 1;
  b.writeBigUInt64BE(BigInt(ids.length), 1);
  ids.forEach((t, i) => b.writeBigUInt64BE(BigInt(t), 9 + 8 * i));
  return h.update(b).digest("hex");
}

it("equals the format's bytes, below and above 2^32, and over a slice", () => {
  const many = Array.from({ length: 50_000 }, (_, i) => (i * 2654435761) % 200_019);
  for (const ids of [[], [0], [1, 2, 3], [4294967295, 4294967296, 2 ** 53 - 1], many])
    expect(tokenDigest(ids)).toBe(byTheFormat(ids));
  expect(tokenDigest(many, 100, 4_000)).toBe(byTheFormat(many.slice(100, 4_000)));
});

it("refuses negative and fractional ids", () => {
  expect(() => tokenDigest([1, -1])).toThrow("token id -1 at index 1 cannot be digested");
  expect(() => tokenDigest([1, 1.5])).toThrow("token id 1.5 at index 1 cannot be digested");
});
