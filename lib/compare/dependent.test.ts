// Expected values: scipy.stats.t (sf, ppf) and hand-worked formulas, never this code's output.
import { describe, expect, it } from "vitest";
import { calibratedVerdict, type StepSeries } from "./calibrated";
import {
  blockBootstrapMean,
  blockLength,
  effectiveSteps,
  lag1Autocorrelation,
  steigerZ,
  studentQuantileTwoSided,
  studentTwoSidedP,
} from "./dependent";
import { SeededRandom } from "./prng";
import { NormalStream, simulateTriplet } from "./simulate";

describe("dependent-series statistics", () => {
  it("Student t with fractional df (scipy.stats.t)", () => {
    expect(studentTwoSidedP(1.2, 3.7)).toBeCloseTo(0.3012923781518793, 12);
    expect(studentTwoSidedP(2.5, 1.2)).toBeCloseTo(0.20741936781909368, 12);
    expect(studentTwoSidedP(4, 7.5)).toBeCloseTo(0.004506110350185178, 12);
    expect(studentTwoSidedP(0, 3)).toBeCloseTo(1, 12);
    expect(studentQuantileTwoSided(0.04, 7.5)).toBeCloseTo(2.480212019060376, 9);
    expect(studentQuantileTwoSided(0.04, 1.2)).toBeCloseTo(10.434128051875414, 8);
  });

  it("lag-1 autocorrelation and the AR(1) plug-in block length", () => {
    // 1..5: deviations −2..2; Σ u_t u_{t−1} = (−2)(−1) + (−1)(0) + 0·1 + 1·2 = 4; Σ u² = 10.
    expect(lag1Autocorrelation([1, 2, 3, 4, 5])).toBeCloseTo(0.4, 12);
    expect(lag1Autocorrelation([1, -1, 1, -1, 1, -1])).toBeLessThan(0);
    // n = 125, so n^(1/3) = 5; a negative ρ gives 1.
    const ar = Array.from({ length: 125 }, (_, i) => (i % 10 < 5 ? 1 : -1));
    expect(blockLength(ar)).toBe(
      Math.round(
        ((Math.sqrt(6) * lag1Autocorrelation(ar)) / (1 - lag1Autocorrelation(ar) ** 2)) ** (2 / 3) *
          5,
      ),
    );
    expect(blockLength(Array.from({ length: 100 }, (_, i) => (i % 2 ? 1 : -1)))).toBe(1);
    // Clamped to n/4: a trend has ρ near 1.
    expect(blockLength(Array.from({ length: 40 }, (_, i) => i))).toBe(10);
  });

  it("block bootstrap: seeded, its mean is the sample mean, a block of n/4 keeps memory", () => {
    const z = new NormalStream(new SeededRandom(3));
    const xs: number[] = [0];
    for (let i = 1; i < 60; i++) xs.push(0.9 * xs[i - 1]! + z.next()); // AR(1), φ = 0.9
    expect(blockBootstrapMean(xs, { seed: 4 })).toEqual(blockBootstrapMean(xs, { seed: 4 }));
    const short = blockBootstrapMean(xs, { blockLength: 1 }),
      long = blockBootstrapMean(xs, { blockLength: 15 });
    expect(short.estimate).toBeCloseTo(xs.reduce((s, x) => s + x, 0) / 60, 12);
    // A persistent series: resampling single steps understates the spread of its mean.
    expect(long.sd).toBeGreaterThan(1.5 * short.sd);
  });

  it("Steiger's z: equal correlations give 0; its sign says which is lower", () => {
    expect(steigerZ(0.9, 0.9, 0.8, 100)).toBeCloseTo(0, 12);
    expect(steigerZ(0.8, 0.9, 0.85, 100)).toBeGreaterThan(0);
    // Dependent correlations are compared more sharply than independent ones (Fisher's z would be
    // (atanh .9 − atanh .8)/sqrt(2/97) = 2.538).
    expect(steigerZ(0.8, 0.9, 0.85, 100)).toBeGreaterThan(2.538);
    expect(effectiveSteps(100, 0)).toBe(100);
    expect(effectiveSteps(100, 0.5)).toBeCloseTo(3 + 97 / 3, 12);
  });
});

describe("the calibrated verdict's cases", () => {
  const t = simulateTriplet(9, 0);
  const nope = (id: string): StepSeries => ({ id, byStep: new Map() });

  it("no seed repeat: not enough evidence, but the paired bootstrap is still shown", () => {
    const v = calibratedVerdict(t.a, t.b, null, null);
    expect(v.decision).toBe("not_enough_evidence");
    expect(v.reason).toMatch(/no seed repeat/);
    expect(v.paired?.steps).toBe(100);
    expect(v.mean_test).toBeNull();
  });

  it("a seed pair without shared steps, and one sharing no run (Fisher's z on effective steps)", () => {
    expect(calibratedVerdict(t.a, t.b, nope("x"), nope("y")).reason).toMatch(/shares only 0 steps/);
    const other = simulateTriplet(10, 0);
    const v = calibratedVerdict(t.a, t.b, { ...other.seed, id: "c" }, { ...other.b, id: "d" });
    expect(v.correlation_test).toMatchObject({ method: "fisher", shared: null });
  });

  it("a shift of 8 between-run sds differs, and says which test fired", () => {
    const s = simulateTriplet(9, 8);
    const v = calibratedVerdict(s.a, s.b, s.seed, s.b);
    expect(v.decision).toBe("differs");
    expect(v.reason).toMatch(/^fired: the mean difference/);
  });
});
