// Digests computed ahead reuse the ids converted for the previous job when the reader said the
// next array repeats them; every answer is checked against the digest written out with BigInt.
import { expect, it } from "vitest";
import { digestByTheFormat } from "@/lib/testing/digest-format";
import { noteSharedPrefix, prehashDigests } from "./digest-ahead";
import { tokenDigest } from "./digest";

/** Prompts of a chain as the reader makes them: each the previous one's ids plus new ones, noted. */
function chainPrompts(calls: number, seed: number, big = false): number[][] {
  const out: number[][] = [];
  let prev: number[] = [seed, seed + 1];
  out.push(prev);
  for (let k = 1; k < calls; k++) {
    const tail = Array.from({ length: 300 + k * 7 }, (_, i) =>
      big && i === 5 ? 2 ** 40 + k : (seed * 31 + k * 977 + i) % 200_000,
    );
    const next = prev.concat(tail);
    noteSharedPrefix(next, prev, prev.length);
    out.push(next);
    prev = next;
  }
  return out;
}

/** Each child's prompt prefix of its parent's length (prompt plus some generated ids). */
const jobsOf = (prompts: number[][]) =>
  prompts.slice(1).map((tokens, k) => ({ tokens, length: prompts[k]!.length + 100 + k }));

async function check(jobs: Array<{ tokens: number[]; length: number }>) {
  const want = jobs.map((j) => digestByTheFormat(j.tokens.slice(0, j.length)));
  await prehashDigests(jobs);
  for (const j of jobs) j.tokens.fill(7, 0, 3); // answered ahead: changes now are not seen
  expect(jobs.map((j) => tokenDigest(j.tokens, 0, j.length))).toEqual(want);
}

it("a chain's digests, each converting only its new ids, equal the format's", async () => {
  await check(jobsOf(chainPrompts(40, 11)));
});

it("two chains interleaved (held ids of the other chain are not reused) equal the format's", async () => {
  const a = jobsOf(chainPrompts(20, 1));
  const b = jobsOf(chainPrompts(20, 5_000));
  await check(a.flatMap((j, k) => [j, b[k]!]));
});

it("ids past 2^32 in the new ids take the slow path and still equal the format's", async () => {
  await check(jobsOf(chainPrompts(12, 3, true)));
});

it("reuses the held ids the reader vouched for, without looking at them again", async () => {
  // B claims to repeat A's 1,000 ids but does not (a lie no reader tells): the answer shows that the
  // ids were taken from what was held for A, which is the saving.
  const a = Array.from({ length: 1_000 }, (_, i) => i);
  const b = [...a.map((t) => t + 1), 5, 6, 7];
  noteSharedPrefix(b, a, a.length);
  await prehashDigests([
    { tokens: a, length: 1_000 },
    { tokens: b, length: 1_003 },
  ]);
  expect(tokenDigest(b, 0, 1_003)).toBe(digestByTheFormat([...a, 5, 6, 7]));
});
