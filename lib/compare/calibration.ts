// Measures the calibrated verdict on simulated triplets and seed groups (./simulate): how often
// "differs" fires with no effect (the false-alarm rate at the stated 5%) and at each shift (power).
// Shared by the unit tests and `npm run bench`; the counting is all it does.
import type { CalibratedVerdict } from "@/lib/schema";
import { calibratedVerdict } from "./calibrated";
import { sidesVerdict } from "./seed-groups";
import {
  DEFAULT_SIMULATION,
  simulateGroups,
  simulateTriplet,
  type SimulationParams,
} from "./simulate";
import { bootstrapMeanDifference, compareCorrelations, pearson } from "./stats";

export interface CalibrationResult {
  shift: number;
  triplets: number;
  /** Share of triplets called "differs". */
  rate: number;
  /** The verdict before calibration (independent bootstraps, Fisher z) on the same triplets. */
  previousRate: number;
  /** Paired block bootstrap alone (no seed-pair yardstick): |mean| / sd > 1.96. */
  pairedOnlyRate: number;
  /** Mean on/off (a–b) correlation over the triplets. */
  correlation: number;
  /** Share of triplets where each test fired (the decision fires when any does). */
  meanRate: number;
  correlationRate: number;
  shapeRate: number;
}

/** The previous verdict: "not within noise" when the independent-bootstrap CI excludes 0 or
 * Fisher's p < 0.05 (500 resamples here, for speed). */
function previousDiffers(a: number[], b: number[], seed: number[]): boolean {
  const diff = bootstrapMeanDifference(a, b, { iterations: 500 });
  const r = pearson(a, b),
    floor = pearson(seed, b);
  const fisher = compareCorrelations(r, a.length, floor, seed.length);
  return diff.low > 0 || diff.high < 0 || fisher.p < 0.05;
}

/** Runs `triplets` simulated triplets at `shift` (seeds firstSeed, firstSeed + 1, …). */
export function measureCalibration(
  shift: number,
  triplets: number,
  firstSeed: number,
  params: SimulationParams = DEFAULT_SIMULATION,
): CalibrationResult {
  let meanFired = 0,
    correlationFired = 0,
    shapeFired = 0;
  let differs = 0,
    previous = 0,
    pairedOnly = 0,
    correlation = 0;
  for (let i = 0; i < triplets; i++) {
    const t = simulateTriplet(firstSeed + i, shift, params);
    const v = calibratedVerdict(t.a, t.b, t.seed, t.b);
    if (v.decision === "differs") differs++;
    if (v.mean_test && v.mean_test.p < v.mean_level) meanFired++;
    if (v.correlation_test && v.correlation_test.p < v.correlation_level) correlationFired++;
    if (v.shape_test?.fired) shapeFired++;
    if (v.paired && Math.abs(v.paired.mean) > 1.96 * v.paired.sd) pairedOnly++;
    const [a, b, s] = [t.a, t.b, t.seed].map((x) => [...x.byStep.values()]) as [
      number[],
      number[],
      number[],
    ];
    if (previousDiffers(a, b, s)) previous++;
    correlation += pearson(a, b);
  }
  return {
    shift,
    triplets,
    rate: differs / triplets,
    previousRate: previous / triplets,
    pairedOnlyRate: pairedOnly / triplets,
    correlation: correlation / triplets,
    meanRate: meanFired / triplets,
    correlationRate: correlationFired / triplets,
    shapeRate: shapeFired / triplets,
  };
}

export interface SeedCalibration {
  /** Seeds of a and of b. One each is the seed-pair verdict on a triplet (a, b and a seed repeat
   * of b); one on a side only is the seed-pair verdict with b's first two seeds as the pair. */
  seeds: readonly [number, number];
  /** The true shift of a, in seed sds (./simulate seedSd). */
  shift: number;
  simulations: number;
  /** Share called "differs", and the share each test fired for. */
  rate: number;
  meanRate: number;
  correlationRate: number;
  shapeRate: number;
}

function simulatedVerdict(
  [nA, nB]: readonly [number, number],
  seed: number,
  shift: number,
  params: SimulationParams,
): CalibratedVerdict {
  if (nA === 1 && nB === 1) {
    const t = simulateTriplet(seed, shift / Math.SQRT2, params);
    return calibratedVerdict(t.a, t.b, t.seed, t.b);
  }
  const g = simulateGroups(seed, nA, nB, shift, params);
  // As ./load picks it: two seeds of b, else of a.
  const [x, y] = g.b.length > 1 ? g.b : g.a;
  const pair = x && y ? { run: y, against: x } : null;
  return sidesVerdict(g.a, g.b, pair);
}

/**
 * Runs `simulations` simulated comparisons of `seeds` runs per side (a number: as many on both)
 * at `shift` seed sds, seeds firstSeed, firstSeed + 1, …, through the verdict compare gives them.
 */
export function measureSeedCalibration(
  seeds: number | readonly [number, number],
  shift: number,
  simulations: number,
  firstSeed: number,
  params: SimulationParams = DEFAULT_SIMULATION,
): SeedCalibration {
  const sides = typeof seeds === "number" ? ([seeds, seeds] as const) : seeds;
  const fired = { differs: 0, mean: 0, correlation: 0, shape: 0 };
  for (let i = 0; i < simulations; i++) {
    const v = simulatedVerdict(sides, firstSeed + i, shift, params);
    if (v.decision === "differs") fired.differs++;
    if (v.mean_test && v.mean_test.p < v.mean_level) fired.mean++;
    if (v.correlation_test && v.correlation_test.p < v.correlation_level) fired.correlation++;
    if (v.shape_test?.fired) fired.shape++;
  }
  return {
    seeds: sides,
    shift,
    simulations,
    rate: fired.differs / simulations,
    meanRate: fired.mean / simulations,
    correlationRate: fired.correlation / simulations,
    shapeRate: fired.shape / simulations,
  };
}
