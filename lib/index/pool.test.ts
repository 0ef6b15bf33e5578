// The index's worker batches: every input once, in order, at most 32 a batch, and a batch ends
// before it would pass 4 MB of token files (a larger rollout goes alone).
import { expect, it } from "vitest";
import { batchesOf } from "./pool";
import type { SummarizeInput } from "@/lib/rollout/summarize";

const input = (i: number, bytes: number): SummarizeInput => ({
  rolloutId: `r-${i}`,
  tokensDir: "/store",
  modelCallsDir: null,
  profile: "seed",
  record: null,
  bytes,
  hasStoreFiles: true,
});

it("cuts inputs into batches of at most 32, in order, each input once", () => {
  const inputs = Array.from({ length: 100 }, (_, i) => input(i, 30_000));
  const batches = batchesOf(inputs);
  expect(batches.map((b) => b.length)).toEqual([32, 32, 32, 4]);
  expect(batches.flat()).toEqual(inputs);
  expect(batchesOf([])).toEqual([]);
});

it("ends a batch before it passes 4 MB of token files; a larger rollout goes alone", () => {
  const MB = 1 << 20;
  const sizes = [3 * MB, 2 * MB, 10 * MB, 1 * MB, 1 * MB, 1 * MB, 1 * MB, 1 * MB];
  const batches = batchesOf(sizes.map((b, i) => input(i, b)));
  expect(batches.map((b) => b.map((x) => x.bytes / MB))).toEqual([
    [3],
    [2],
    [10],
    [1, 1, 1, 1],
    [1],
  ]);
});
