// Calibration of the seed-group verdict as a test: on simulated seed groups with no effect (both
// sides one configuration) "differs" fires for at most 7% at its stated 5% family level (the mean
// test's share at most its 4% plus slack), with 2, 3 and 5 seeds per side on every drift family,
// and with one run on a side (the seed-pair fallback). Power rises with the seeds. Seeds differ
// from bench/compare.bench.ts'.
import { describe, expect, it } from "vitest";
import { measureSeedCalibration } from "./calibration";
import { DEFAULT_SIMULATION, seedSd, simulateGroups } from "./simulate";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const SIMULATIONS = 300;

describe("calibration of the seed-group verdict on simulated groups", () => {
  it("the simulator: a seed's mean varies across seeds by the seedSd it states", () => {
    const groups = simulateGroups(5, 3, 2);
    expect(groups.a.map((r) => r.id)).toEqual(["sim-a1", "sim-a2", "sim-a3"]);
    expect(simulateGroups(5, 3, 2)).toEqual(groups);
    // The shared curve moves every run's mean alike; the spread between seeds is the rest, so the
    // check takes pairs of runs from one simulation: sd(x − y) / √2.
    const pairs = Array.from({ length: 1000 }, (_, i) => {
      const g = simulateGroups(800_000 + i, 2, 0);
      const [x, y] = g.a.map((r) => [...r.byStep.values()].reduce((s, v) => s + v, 0) / 100);
      return (x! - y!) / Math.SQRT2;
    });
    const sd = Math.sqrt(pairs.reduce((s, x) => s + x * x, 0) / pairs.length);
    expect(sd / seedSd()).toBeGreaterThan(0.93);
    expect(sd / seedSd()).toBeLessThan(1.07);
  });

  it("null: 'differs' for at most 7% of 300 simulations with 2, 3 and 5 seeds per side, on each drift family", () => {
    for (const drift of ["ar1", "random-walk", "level-shift"] as const)
      for (const n of [2, 3, 5]) {
        const r = measureSeedCalibration(n, 0, SIMULATIONS, 1_300_000 + n * 10_000, {
          ...DEFAULT_SIMULATION,
          drift,
        });
        console.log(
          `seed groups, ${drift}, ${n} seeds per side: null ${pct(r.rate)} of ${r.simulations} ` +
            `(mean test ${pct(r.meanRate)}, correlation ${pct(r.correlationRate)}, ` +
            `distribution ${pct(r.shapeRate)})`,
        );
        expect(r.rate, `${drift}, ${n} seeds`).toBeLessThanOrEqual(0.07);
        expect(r.meanRate, `${drift}, ${n} seeds: the mean test`).toBeLessThanOrEqual(0.06);
      }
  }, 60_000);

  it("null with one run on a side (the seed-pair fallback, b's first two seeds as the pair)", () => {
    for (const drift of ["ar1", "random-walk", "level-shift"] as const) {
      const r = measureSeedCalibration([1, 3], 0, SIMULATIONS, 1_400_000, {
        ...DEFAULT_SIMULATION,
        drift,
      });
      console.log(`1 run vs 3 seeds, ${drift}: null ${pct(r.rate)} of ${r.simulations}`);
      expect(r.rate, drift).toBeLessThanOrEqual(0.07);
    }
  }, 30_000);

  it("power at a shift of 2 seed sds rises with the seeds per side", () => {
    const rates = [2, 3, 5].map((n) => measureSeedCalibration(n, 2, 200, 1_500_000 + n).rate);
    console.log(`power at 2 seed sds, 2 / 3 / 5 seeds per side: ${rates.map(pct).join(" / ")}`);
    expect(rates[1]).toBeGreaterThan(rates[0]!);
    expect(rates[2]).toBeGreaterThan(rates[1]!);
    expect(rates[2]).toBeGreaterThan(0.5);
  }, 30_000);
});
