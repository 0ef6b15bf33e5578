// The hotspot tally on hand-written samples: each expected number is worked out here from the
// definition in docs/hotspots.md (error exp(|gen − prev|) at trained
// positions, position 0 dropped; buckets 2^b … 2^(b+1) − 1). Turns need the capture: joined.test.
import { describe, expect, it } from "vitest";
import { DENSE_LIMIT } from "./dense";
import { addSample, emptyTally, mergeTallies, rank, tokenEntries, type Tally } from "./tally";

const BIG = DENSE_LIMIT + 5;

function sample(line: number, ids: number[], mask: number[], delta: number[]) {
  return {
    step: 1,
    file: "train_data_step1.jsonl",
    line,
    tokenIds: ids,
    tokenLossMask: mask,
    sampleLossMask: 1,
    generationLogprobs: ids.map(() => -1),
    prevLogprobs: delta.map((d) => -1 - d),
  };
}

// Positions 0..5: a prompt token, a turn of two, a tool token, a turn of two (one a big id).
const A = sample(1, [5, 7, 9, 3, 7, BIG], [0, 1, 1, 0, 1, 1], [0, 0.5, 0, 0, 1, 2]);
const B = sample(2, [7, 7], [1, 1], [3, 0.25]); // position 0 is dropped although trained

const table = (t: Tally) => new Map([...tokenEntries(t)].map(([k, a]) => [k, a]));

describe("the hotspot tally", () => {
  it("counts every trained token but position 0, by token and bucket", () => {
    const t = emptyTally();
    addSample(t, A);
    addSample(t, B);
    expect(t.maskedTokens).toBe(5);
    const tokens = table(t);
    expect([...tokens.keys()].sort((a, b) => a - b)).toEqual([7, 9, BIG]);
    const seven = tokens.get(7)!;
    expect(seven.count).toBe(3); // A pos 1 and 4, B pos 1
    expect(seven.sum).toBeCloseTo(Math.exp(0.5) + Math.exp(1) + Math.exp(0.25), 12);
    expect(seven.tail).toBe(3);
    expect(seven.at).toEqual({ step: 1, file: "train_data_step1.jsonl", line: 1, pos: 4 });
    expect(tokens.get(BIG)!.max).toBeCloseTo(Math.exp(2), 12);
    expect(tokens.get(9)!.tail).toBe(0); // exp(0) = 1, not above 1.05
    // Buckets: position 1 → 0; 2 → 1; 4, 5 → 2.
    expect(t.positions.get(0)!.count).toBe(2);
    expect(t.positions.get(1)!.count).toBe(1);
    expect(t.positions.get(2)!.count).toBe(2);
  });

  it("leaves a non-finite error out of every row and counts it", () => {
    const t = emptyTally();
    addSample(t, sample(1, [1, 2, 3], [0, 1, 1], [0, Infinity, 0.5]));
    expect([t.maskedTokens, t.nonFinite]).toEqual([2, 1]);
    expect([...table(t).keys()]).toEqual([3]);
  });

  it("merges files to what one tally of all their samples holds", () => {
    const [one, a, b] = [emptyTally(), emptyTally(), emptyTally()];
    addSample(one, A);
    addSample(one, B);
    addSample(a, A);
    addSample(b, B);
    const merged = mergeTallies([a, b]);
    expect(table(merged)).toEqual(table(one));
    expect(merged.positions).toEqual(one.positions);
  });

  it("ranks by mean, then count, then key, among keys seen often enough", () => {
    const t = emptyTally();
    addSample(t, A);
    addSample(t, B);
    expect(rank(tokenEntries(t), "mean", 1, 10).map((r) => r.key)).toEqual([BIG, 7, 9]);
    expect(rank(tokenEntries(t), "mean", 2, 10).map((r) => r.key)).toEqual([7]);
    expect(rank(t.positions, "tail", 1, 1).map((r) => r.key)).toEqual([0]);
  });
});
