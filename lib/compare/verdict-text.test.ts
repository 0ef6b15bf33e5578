// The headline in plain words, on hand-built verdicts: the sentence states the decision, the two
// levels and the seed gap; on heavy tails it says medians; the statistics stay in verdictInWords.
import { describe, expect, it } from "vitest";
import type { CalibratedVerdict } from "@/lib/schema";
import { headline, verdictInWords } from "./verdict-text";

const block = { steps: 100, sd: 0.002, block_length: 1, lag1: 0.1 };
const shape = (o: Partial<NonNullable<CalibratedVerdict["shape_test"]>> = {}) => ({
  distance: 0.006,
  seed_distance: 0.004,
  ratio: 1.5,
  critical: 8,
  w1: 0.007,
  seed_w1: 0.005,
  median_a: 0.556,
  median_b: 0.546,
  seed_median_run: 0.5463,
  seed_median_against: 0.546,
  heavy_tailed: false,
  fired: false,
  ...o,
});
const verdict = (o: Partial<CalibratedVerdict>): CalibratedVerdict => ({
  decision: "within_noise",
  level: 0.05,
  mean_level: 0.04,
  correlation_level: 0.005,
  shape_level: 0.005,
  reason: "none fired",
  paired: { ...block, mean: 0.006 },
  seed_pair: { ...block, mean: 0.003, run: "off-seed2", against: "off" },
  mean_test: { t: 1.75, df: 1.7, p: 0.243, se: 0.0034, low: -0.014, high: 0.026, level: 0.96 },
  correlation_test: null,
  shape_test: shape(),
  yardstick: "seed_pair",
  seeds: null,
  method: "…",
  ...o,
});
const levels = { a: "on", b: "off", mean_a: 0.552, mean_b: 0.546 };

describe("headline", () => {
  it("within noise: no difference we can detect, the means and the seed gap", () => {
    expect(headline(levels, verdict({}))).toBe(
      "No difference we can detect: on 0.552 vs off 0.546; two seeds of the same setup differ by about 0.003; with this evidence (1.7 df) a shift smaller than about ±0.020 would not be told apart.",
    );
  });

  it("differs on heavy tails: medians named, the distribution finding in words, never 'noise'", () => {
    const v = verdict({
      decision: "differs",
      reason: "fired: the distributions",
      mean_test: { t: -1, df: 1.8, p: 0.42, se: 0.2, low: -1.3, high: 0.9, level: 0.96 },
      shape_test: shape({
        ratio: 48.5,
        fired: true,
        heavy_tailed: true,
        median_a: 1.00198,
        median_b: 1.04138,
        seed_median_run: 1.04175,
        seed_median_against: 1.04138,
      }),
    });
    const h = headline(levels, v);
    expect(h).toBe(
      "Differs: on median 1.0020 vs off median 1.0414; two seeds of the same setup differ by about 0.0004 " +
        "(medians: the values are heavy-tailed, so means would follow a few spikes). " +
        "The per-step values' distributions are 49 times further apart than the two seeds'.",
    );
    expect(h).not.toMatch(/noise/);
    expect(verdictInWords("on", "off", v, 0.7, null)).toMatch(/trimmed 1-Wasserstein.*ratio 48\.5/);
  });

  it("differs on the mean alone says so", () => {
    const v = verdict({
      decision: "differs",
      mean_test: { t: 9, df: 3, p: 0.003, se: 0.003, low: 0.01, high: 0.04, level: 0.96 },
    });
    expect(headline(levels, v)).toBe(
      "Differs: on 0.552 vs off 0.546; two seeds of the same setup differ by about 0.003. " +
        "The mean difference is larger than seed-to-seed drift explains.",
    );
  });

  it("not enough evidence gives the reason", () => {
    const v = verdict({
      decision: "not_enough_evidence",
      reason: "no seed repeat",
      seed_pair: null,
    });
    expect(headline(levels, v)).toBe("Not enough evidence to tell: no seed repeat.");
  });
});

describe("seed groups in words", () => {
  const seedSide = (sd: number, floored = false) => ({
    runs: [
      { id: "x1", mean: 0.55, se: 0.001, block_length: 1 },
      { id: "x2", mean: 0.56, se: 0.001, block_length: 1 },
    ],
    n: 3,
    mean: 0.552,
    sd,
    variance: floored ? 0.000004 : sd * sd,
    floored,
  });
  const seeds = (o: Partial<CalibratedVerdict> = {}) =>
    verdict({
      yardstick: "seeds",
      seeds: { steps: 100, a: seedSide(0.004), b: { ...seedSide(0.001, true), n: 2, mean: 0.546 } },
      mean_test: { t: 1.2, df: 2.6, p: 0.33, se: 0.005, low: -0.012, high: 0.024, level: 0.96 },
      ...o,
    });
  const sides = {
    a: { label: "on", seed_group: "on", runs: ["on-1", "on-2", "on-3"] },
    b: { label: "{off-1, off-2}", seed_group: null, runs: ["off-1", "off-2"] },
  };

  it("the headline counts the seeds and gives their spread, pooled over both sides", () => {
    // Pooled sd: √((2 · 0.004² + 1 · 0.001²) / 3) = 0.00332.
    expect(headline({ ...levels, n_a: 3, n_b: 2 }, seeds())).toBe(
      "No difference we can detect: on (3 seeds) 0.552 vs off (2 seeds) 0.546; a run's mean varies between seeds of one setup by about 0.003 (sd); with this evidence (2.6 df) a shift smaller than about ±0.018 would not be told apart.",
    );
  });

  it("the verdict says how many seeds each side has and that Welch's t tested the means", () => {
    const w = verdictInWords("on", "{off-1, off-2}", seeds(), 0.9, null, sides);
    expect(w).toMatch(
      /^a is 3 seeds \(seed_group on: on-1, on-2, on-3\), b is 2 seeds \(\{off-1, off-2\}\); the mean is tested against the spread between each side's seeds \(Welch's t\)\. Within seed-to-seed noise \(5% level in all: the mean's t test at 4%, the distributions' at 0\.5%; the correlation's at 0\.5%, not run here\): mean of the run means on − \{off-1, off-2\} = \+0\.006/,
    );
    expect(w).toMatch(/0\.001 \(sd on \{off-1, off-2\}, raised to its runs' own error 0\.002\)/);
    expect(w).toMatch(/Welch t = 1\.20, 2\.6 df, p = 0\.330/);
  });

  it("differs and not enough evidence never say noise or 'no difference'", () => {
    const d = seeds({
      decision: "differs",
      reason: "fired: the mean difference (p = 0.01)",
      mean_test: { t: 9, df: 3.5, p: 0.01, se: 0.001, low: 0.003, high: 0.009, level: 0.96 },
    });
    const h = headline({ ...levels, n_a: 3, n_b: 2 }, d);
    expect(h).toMatch(
      /^Differs: on \(3 seeds\) .*The mean difference is larger than the spread between seeds explains\.$/,
    );
    expect(h).not.toMatch(/noise|no difference/i);
    expect(verdictInWords("on", "off", d, 0.9, null, sides)).not.toMatch(/within .*noise/i);
    const none = seeds({
      decision: "not_enough_evidence",
      reason: "x1 is on both sides, so the sides are not separate seeds",
      mean_test: null,
    });
    expect(headline(levels, none)).toBe(
      "Not enough evidence to tell: x1 is on both sides, so the sides are not separate seeds.",
    );
    const words = verdictInWords("on", "off", none, 0.9, null, sides);
    expect(words).toMatch(/^a is 3 seeds .*Not enough evidence: x1 is on both sides/);
    expect(words).not.toMatch(/within .*noise/i);
  });
});
