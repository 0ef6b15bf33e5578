// Expected numbers come from lib/compare/reference.py (numpy/scipy and an independent mulberry32
// port), not from this code.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { readEventFile } from "@/lib/trainer/event-scalars";
import { SeriesCollector } from "@/lib/trainer/scalar-series";
import {
  bootstrapMean,
  bootstrapMeanDifference,
  compareCorrelations,
  pairedPermutationTest,
  pearson,
  rollingMean,
  signTest,
} from "./stats";

/** The run's train/reward per step from its event files (float32), as reference.py reads them. */
function rewards(run: string): number[] {
  const dir = path.join(RUNS_DIR, run, "logs", "tensorboard");
  const c = new SeriesCollector();
  for (const f of readdirSync(dir)) readEventFile(readFileSync(path.join(dir, f)), f, c);
  return (c.series().find((s) => s.tag === "train/reward")?.points ?? []).map((p) => p.value!);
}
const SMALL = [0.2, -0.1, 0.35, 0.0, 0.15, 0.4, -0.05, 0.3, 0.1, 0.25];

describe("statistics against an independent reference", () => {
  const on = rewards("grpo-capture-on"),
    off = rewards("grpo-capture-off"),
    off2 = rewards("grpo-capture-off-seed2");

  it("Pearson correlation of the GRPO runs (scipy.stats.pearsonr)", () => {
    expect(pearson(on, off)).toBeCloseTo(0.9429564976492388, 12);
    expect(pearson(off2, off)).toBeCloseTo(0.9520194821437309, 12);
    expect(() => pearson([1, 2], [1, 2])).toThrow(/at least 3/);
    expect(() => pearson([1, 2, 3], [1, 2])).toThrow(/3 vs 2/);
  });

  it("Fisher z comparison of the correlation with the floor (scipy.stats.norm.sf)", () => {
    const t = compareCorrelations(0.9429564976492388, 100, 0.9520194821437309, 100);
    expect(t.z).toBeCloseTo(0.6186739815524286, 10);
    expect(t.p).toBeCloseTo(0.26806557682662624, 6);
  });

  it("seeded percentile bootstraps (numpy percentile, mulberry32 port)", () => {
    expect(bootstrapMean(on)).toMatchObject({
      estimate: expect.closeTo(0.5520029991865159, 10),
      low: expect.closeTo(0.5427996741756796, 10),
      high: expect.closeTo(0.5615171227976681, 10),
      level: 0.95,
    });
    const d = bootstrapMeanDifference(on, off);
    expect(d.estimate).toBeCloseTo(0.0059990021586419084, 10);
    expect(d.low).toBeCloseTo(-0.006891497530043187, 10);
    expect(d.high).toBeCloseTo(0.01906702782213686, 10);
    const paired = bootstrapMean(on.map((x, i) => x - off[i]!));
    expect([paired.low, paired.high]).toEqual([
      expect.closeTo(0.002678605131804944, 10),
      expect.closeTo(0.009326028794050216, 10),
    ]);
    expect(bootstrapMean(SMALL, { iterations: 500, seed: 7 })).toMatchObject({
      estimate: expect.closeTo(0.16, 12),
      low: expect.closeTo(0.06, 12),
      high: expect.closeTo(0.255, 12),
    });
    const sd = bootstrapMeanDifference(
      SMALL,
      SMALL.map((x) => x / 2),
      { iterations: 300, seed: 11 },
    );
    expect([sd.estimate, sd.low, sd.high]).toEqual([
      expect.closeTo(0.08, 12),
      expect.closeTo(-0.03131249999999998, 12),
      expect.closeTo(0.20131249999999998, 12),
    ]);
  });

  it("the bootstrap is stable for a seed and moves with it", () => {
    expect(bootstrapMean(SMALL, { seed: 3 })).toEqual(bootstrapMean(SMALL, { seed: 3 }));
    expect(bootstrapMean(SMALL, { seed: 3 }).low).not.toBe(bootstrapMean(SMALL, { seed: 4 }).low);
  });

  it("exact sign test (scipy.stats.binomtest)", () => {
    expect(signTest(SMALL)).toEqual({
      positive: 7,
      negative: 2,
      ties: 1,
      p: expect.closeTo(0.1796875, 12),
    });
    const forty = [...Array(12).fill(1), ...Array(28).fill(-1)];
    expect(signTest(forty).p).toBeCloseTo(0.01658900337497471, 10);
    expect(signTest([0, 0])).toEqual({ positive: 0, negative: 0, ties: 2, p: 1 });
  });

  it("paired sign-flip permutation test: exact enumeration (itertools) and Monte Carlo", () => {
    expect(pairedPermutationTest(SMALL)).toEqual({ p: 0.02734375, exact: true, iterations: 1024 });
    const many = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? -0.1 : 0.12));
    const mc = pairedPermutationTest(many, { iterations: 4000, seed: 5 });
    expect(mc.exact).toBe(false);
    expect(mc.p).toBeLessThan(0.05);
    expect(pairedPermutationTest(many, { iterations: 4000, seed: 5 })).toEqual(mc);
  });

  it("trailing rolling mean (numpy mean over the window)", () => {
    const ref = [
      0.2, 0.05, 0.15, 0.08333333333333333, 0.16666666666666666, 0.18333333333333335,
      0.16666666666666666, 0.21666666666666667, 0.11666666666666665, 0.21666666666666667,
    ];
    rollingMean(SMALL, 3).forEach((v, i) => expect(v).toBeCloseTo(ref[i]!, 12));
  });
});
