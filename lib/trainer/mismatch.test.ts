import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { sampleMismatch, stepMismatch, tokenErrors } from "./mismatch";

describe("NeMo-RL's multiplicative probability error", () => {
  // Position 0 is dropped even though its mask is 1; positions 1 and 3 are masked in.
  const a = {
    tokenLossMask: [1, 1, 0, 1],
    sampleLossMask: 1,
    generationLogprobs: [-9, -0.1, -2, -0.5],
    prevLogprobs: [0, -0.3, -5, -1.5],
  };
  const b = {
    tokenLossMask: [0, 0, 1],
    sampleLossMask: 1,
    generationLogprobs: [0, 0, -1],
    prevLogprobs: [0, 0, -1.25],
  };

  it("a sample's value is the mean of exp(|gen − prev|) over its masked tokens", () => {
    const hand = (Math.exp(0.2) + Math.exp(1.0)) / 2;
    const m = sampleMismatch(a)!;
    expect(m.maskedTokens).toBe(2);
    expect(m.mean).toBeCloseTo(hand, 12);
    expect(m.maxPos).toBe(3);
    expect(Array.from(tokenErrors(a))).toEqual(
      [0, Math.exp(0.2), 0, Math.exp(1.0)].map((v) => expect.closeTo(v, 12)),
    );
  });

  it("a step's value weighs every masked token alike, not every sample", () => {
    const hand = (Math.exp(0.2) + Math.exp(1.0) + Math.exp(0.25)) / 3;
    expect(stepMismatch([sampleMismatch(a), sampleMismatch(b)])).toBeCloseTo(hand, 12);
  });

  it("a sample the trainer masks out (sample_loss_mask 0) counts no token", () => {
    const m = sampleMismatch({ ...a, sampleLossMask: 0 })!;
    expect(m.maskedTokens).toBe(0);
    expect(m.mean).toBeNull();
    expect(stepMismatch([m, sampleMismatch(b)])).toBeCloseTo(Math.exp(0.25), 12);
  });
});

describe("the fixture's step files, computed by hand from the raw lines", () => {
  for (const run of ["grpo-capture-on", "grpo-capture-off"])
    it(`${run}: each step's token_mult_prob_error`, () => {
      for (const n of [1, 2, 3]) {
        const file = path.join(RUNS_DIR, run, "logs", `train_data_step${n}.jsonl`);
        const lines = readFileSync(file, "utf8").trim().split("\n");
        let sum = 0;
        let count = 0;
        const samples = lines.map((l) => {
          const v = JSON.parse(l) as Record<string, number[][] | number[]>;
          const len = (v.input_lengths as number[])[0]!;
          const g = (v.generation_logprobs as number[][])[0]!;
          const p = (v.prev_logprobs as number[][])[0]!;
          const mask = (v.token_loss_mask as number[][])[0]!;
          const sm = (v.sample_loss_mask as number[])[0]!;
          for (let t = 1; t < len; t++)
            if (mask[t]! * sm) [sum, count] = [sum + Math.exp(Math.abs(g[t]! - p[t]!)), count + 1];
          return sampleMismatch({
            tokenLossMask: mask.slice(0, len),
            sampleLossMask: sm,
            generationLogprobs: g.slice(0, len),
            prevLogprobs: p.slice(0, len),
          });
        });
        expect(count).toBeGreaterThan(0);
        expect(stepMismatch(samples)).toBeCloseTo(sum / count, 10);
      }
    });
});
