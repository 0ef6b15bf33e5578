// Turns and MoE rows on hand-written samples and chains, each expected number worked out here from
// the definition in docs/hotspots.md: a turn is the index of the main chain's call whose generation
// holds the position (so two calls with no prompt between them are two turns, and a call that
// generated nothing still counts); a replayed token counts under each (layer, expert) of its row.
import { describe, expect, it } from "vitest";
import type { Routes } from "@/lib/experts";
import { tokenErrors } from "../mismatch";
import { addJoined, emptyJoined, fallbackOf, MOE_KEY, replayedOf, type ChainCalls } from "./joined";

function sample(mask: number[], delta: number[]) {
  return {
    step: 1,
    file: "train_data_step1.jsonl",
    line: 1,
    tokenIds: mask.map((_, p) => 100 + p),
    tokenLossMask: mask,
    sampleLossMask: 1,
    generationLogprobs: mask.map(() => -1),
    prevLogprobs: delta.map((d) => -1 - d),
  };
}

// Positions 0..7: prompt 0; call 0 generates 1–2; call 1 (no prompt between) 3–4; call 2 generates
// nothing; prompt 5; call 3 generates 6–7. The trainer's mask is one run 1–4, then 6–7.
const S = sample([0, 1, 1, 1, 1, 0, 1, 1], [0, 0.1, 0.2, 0.3, 0.4, 0, 0.6, 0.7]);
const CALLS: ChainCalls = {
  spans: [
    [1, 3, 0],
    [3, 5, 1],
    [6, 8, 3],
  ],
  routed: true,
};
const e = (d: number) => Math.exp(d);

describe("the joined tally", () => {
  it("gives each trained token the call that generated it, not the run of the mask", () => {
    const t = emptyJoined();
    addJoined(t, { sample: S, errors: tokenErrors(S), limit: Infinity, calls: CALLS, routes: [] });
    expect([...t.turns.keys()]).toEqual([0, 1, 3]);
    expect(t.turns.get(1)!.count).toBe(2);
    expect(t.turns.get(1)!.sum).toBeCloseTo(e(0.3) + e(0.4), 12);
    expect(t.turns.get(3)!.at.pos).toBe(7);
    expect([t.turnUnknown, t.noRoute]).toEqual([0, 6]);
  });

  it("says turn unknown past the first difference, without a capture, and off the generation", () => {
    const t = emptyJoined();
    addJoined(t, { sample: S, errors: tokenErrors(S), limit: 4, calls: CALLS, routes: [] });
    expect(t.turnUnknown).toBe(3); // positions 4, 6, 7
    const trainedPrompt = sample([0, 1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0.5, 0, 0]);
    addJoined(t, {
      sample: trainedPrompt,
      errors: tokenErrors(trainedPrompt),
      limit: Infinity,
      calls: CALLS,
      routes: [],
    });
    expect(t.turnUnknown).toBe(4); // and position 5, a prompt token the trainer trained
    addJoined(t, { sample: S, errors: tokenErrors(S), limit: 0, calls: null, routes: [] });
    expect(t.turnUnknown).toBe(10);
  });

  it("sums replayed tokens by layer × expert and fallback rows apart", () => {
    // Call 0's routes: 2 layers × top-1, rows for positions 0..2; row 2 fell back (all −1).
    const r0: Routes = { rows: 3, layers: 2, topk: 1, data: Int8Array.from([0, 0, 4, 5, -1, -1]) };
    // Call 1's routes stop at row 3: row 4 is missing, a fallback too.
    const r1: Routes = {
      rows: 4,
      layers: 2,
      topk: 1,
      data: Int16Array.from([0, 0, 0, 0, 0, 0, 4, 7]),
    };
    const t = emptyJoined();
    addJoined(t, {
      sample: S,
      errors: tokenErrors(S),
      limit: Infinity,
      calls: CALLS,
      routes: [r0, r1, null, null],
    });
    // Replayed: position 1 (layer 0 → 4, layer 1 → 5) and 3 (layer 0 → 4, layer 1 → 7).
    expect(replayedOf(t)!.count).toBe(2);
    expect(fallbackOf(t)!.count).toBe(2); // positions 2 and 4
    expect(fallbackOf(t)!.sum).toBeCloseTo(e(0.2) + e(0.4), 12);
    expect([...t.moe.keys()].sort((a, b) => a - b)).toEqual([4, MOE_KEY + 5, MOE_KEY + 7]);
    expect(t.moe.get(4)!.sum).toBeCloseTo(e(0.1) + e(0.3), 12);
    expect(t.noRoute).toBe(2); // call 3 carries no routes
    expect([t.layers, t.topk]).toEqual([2, 1]);
  });
});
