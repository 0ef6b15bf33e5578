// The token digest (docs/capture-format.md §5.1) against the format written out with BigInt: the domain,
// then version 1, the u64 big-endian count and every id as u64 big-endian. Covers the fast path
// (ids below 2^32) and the slow one (ids up to 2^53 − 1) and the refusals.
import { expect, it } from "vitest";
import { digestByTheFormat } from "@/lib/testing/digest-format";
import { prehashDigests } from "./digest-ahead";
import { tokenDigest } from "./digest";

it("equals the format's bytes, below and above 2^32, and over a slice", () => {
  const many = Array.from({ length: 50_000 }, (_, i) => (i * 2654435761) % 200_019);
  for (const ids of [[], [0], [1, 2, 3], [4294967295, 4294967296, 2 ** 53 - 1], many])
    expect(tokenDigest(ids)).toBe(digestByTheFormat(ids));
  expect(tokenDigest(many, 100, 4_000)).toBe(digestByTheFormat(many.slice(100, 4_000)));
});

it("refuses negative and fractional ids", () => {
  expect(() => tokenDigest([1, -1])).toThrow("token id -1 at index 1 cannot be digested");
  expect(() => tokenDigest([1, 1.5])).toThrow("token id 1.5 at index 1 cannot be digested");
});

it("prehashes on the thread pool to the format's bytes, several at once over one scratch buffer", async () => {
  const arrays = Array.from({ length: 11 }, (_, k) =>
    Array.from({ length: 1_000 * (k + 1) + k }, (_, i) => (i * 40503 + k * 7919) % 200_019),
  );
  arrays.push([4294967295, 4294967296, 2 ** 53 - 1, 7]);
  const jobs = arrays.map((tokens, k) => ({ tokens, length: tokens.length - (k % 3) }));
  await prehashDigests(jobs);
  const expected = jobs.map((j) => digestByTheFormat(j.tokens.slice(0, j.length)));
  // Answered from the prehash: changing an array now does not change its answer.
  for (const j of jobs) j.tokens[0] = 123_456;
  expect(jobs.map((j) => tokenDigest(j.tokens, 0, j.length))).toEqual(expected);
  // Another length of the same array is hashed here, from the array as it is now.
  const [first] = jobs;
  expect(tokenDigest(first!.tokens, 0, 10)).toBe(digestByTheFormat(first!.tokens.slice(0, 10)));
});

it("leaves ids it cannot digest to tokenDigest, which refuses them as before", async () => {
  const bad = [1, -1, 3];
  await prehashDigests([{ tokens: bad, length: 3 }]);
  expect(() => tokenDigest(bad)).toThrow("token id -1 at index 1 cannot be digested");
});
