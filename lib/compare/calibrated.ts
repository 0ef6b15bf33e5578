// The calibrated training verdict: does a differ from b by more than two seeds of one configuration
// differ? Pairs the runs by step, block-bootstraps the per-step difference, uses the seed-repeat
// pair's own difference as the run-to-run yardstick and tests the correlation against the floor
// with Steiger's z. Not responsible for loading runs or picking the seed pair (./load does), nor
// for sides of several seeds each (./seed-groups).
import type { BlockBootstrapSummary, CalibratedVerdict } from "@/lib/schema";
import { compareCorrelations, normalCdf, pearson } from "./stats";
import {
  blockBootstrapMean,
  effectiveSteps,
  lag1Autocorrelation,
  steigerZ,
  studentQuantileTwoSided,
  studentTwoSidedP,
} from "./dependent";
import { SHAPE_LEVEL, shapeTest } from "./shape";

/**
 * The family-wise level of "differs", split Bonferroni-style over the three tests: the mean 4%, the
 * correlation 0.5%, the distribution (./shape) 0.5%.
 */
export const LEVEL = 0.05;
export const MEAN_LEVEL = 0.04;
export const CORRELATION_LEVEL = 0.005;
/** The mean test's degrees of freedom are at most this (see meanTest). */
export const MAX_MEAN_DF = 3;
/** Fewer shared steps than this: too few blocks to estimate a standard error. */
export const MIN_STEPS = 20;

/** A run's reward by step. */
export interface StepSeries {
  id: string;
  byStep: ReadonlyMap<number, number>;
}

export interface VerdictOptions {
  iterations?: number;
  seed?: number;
  /**
   * The series the mean test pairs instead of a and b: each side's per-step mean over its seeds
   * when a side has several (./seed-groups), so the seed pair's yardstick is still the one used.
   */
  means?: { a: StepSeries; b: StepSeries };
}

/** The steps every series has, in order. */
export function sharedSteps(...runs: StepSeries[]): number[] {
  const first = runs[0];
  if (!first) return [];
  return [...first.byStep.keys()]
    .filter((s) => runs.every((r) => r.byStep.has(s)))
    .sort((x, y) => x - y);
}

/** Values of every series at the steps all of them have, in step order. */
export function alignSteps(...runs: StepSeries[]): number[][] {
  const steps = sharedSteps(...runs);
  return runs.map((r) => steps.map((s) => r.byStep.get(s) as number));
}

export function summarise(
  diffs: number[],
  seed: number,
  iterations?: number,
): BlockBootstrapSummary {
  const b = blockBootstrapMean(diffs, { seed, iterations });
  return {
    steps: diffs.length,
    mean: b.estimate,
    sd: b.sd,
    block_length: b.block_length,
    lag1: b.lag1,
  };
}

/**
 * The mean test. Under "no effect", mean(a − b) varies by the within-run error the block bootstrap
 * sees (sd²) plus the run-to-run shift slow drift adds, which the seed pair shows once: its squared
 * mean difference m² (1 degree of freedom), floored at its own bootstrap error sd_seed² (a seed
 * pair that happens to agree closely is chance, not proof that runs agree): u = max(m², sd_seed²),
 * t = mean / sqrt(sd² + u) on Satterthwaite's df (sd² + w)² / (w² + sd⁴/(blocks − 1)) with
 * w = max(u, sd²), at most MAX_MEAN_DF: one seed pair is one draw of the run-to-run variance, and
 * when drift is not stationary the bootstrap's sd² underestimates it, so neither a close seed pair
 * nor a noisy pair (a, b) buys the t test many degrees of freedom. Calibrated on three drift
 * families (./simulate, 1,000 null triplets each in the bench): with m² alone and no cap the test
 * fired for 7.3%+ of random-walk triplets at 4%; with the floors and the cap under 6% on each.
 */
export function meanTest(
  paired: BlockBootstrapSummary,
  seed: BlockBootstrapSummary,
  level = MEAN_LEVEL,
): CalibratedVerdict["mean_test"] {
  const within = paired.sd ** 2,
    between = seed.mean ** 2;
  const u = Math.max(between, seed.sd ** 2);
  const v = within + u;
  if (!(v > 0)) return null;
  const blocks = Math.max(1, Math.floor(paired.steps / paired.block_length) - 1);
  const w = Math.max(u, within);
  const df = Math.min(MAX_MEAN_DF, (within + w) ** 2 / (w * w + (within * within) / blocks));
  const se = Math.sqrt(v);
  const t = paired.mean / se;
  const q = studentQuantileTwoSided(level, df);
  return {
    t,
    df,
    p: studentTwoSidedP(t, df),
    se,
    low: paired.mean - q * se,
    high: paired.mean + q * se,
    level: 1 - level,
  };
}

/**
 * One-sided: is corr(a, b) below the floor corr(run, against)? Steiger's z when the pairs share a
 * run (they are dependent and overlap), Fisher's z when they share none; either on effective steps
 * (Bartlett's inflation from the lag-1 autocorrelation of a − b), since steps are not independent.
 */
export function correlationTest(
  a: StepSeries,
  b: StepSeries,
  run: StepSeries,
  against: StepSeries,
): CalibratedVerdict["correlation_test"] {
  const shared = [a, b].find((x) => x.id === run.id || x.id === against.id) ?? null;
  const finiteR = (x: number[], y: number[]) => {
    const r = pearson(x, y);
    return Number.isFinite(r) && Math.abs(r) < 1 ? r : null;
  };
  if (shared) {
    const k = shared === a ? b : a;
    const h = run.id === shared.id ? against : run;
    const [j, x, y] = alignSteps(shared, k, h) as [number[], number[], number[]];
    if (j.length < MIN_STEPS) return null;
    const [rjk, rjh, rkh] = [finiteR(j, x), finiteR(j, y), finiteR(x, y)];
    if (rjk === null || rjh === null || rkh === null) return null;
    const d =
      shared === a ? j.map((v, i) => v - (x[i] as number)) : x.map((v, i) => v - (j[i] as number));
    const nEff = effectiveSteps(j.length, lag1Autocorrelation(d));
    const z = steigerZ(rjk, rjh, rkh, nEff);
    if (!Number.isFinite(z)) return null;
    const p = 1 - normalCdf(z);
    return {
      method: "steiger",
      shared: shared.id,
      steps: j.length,
      effective_steps: nEff,
      z,
      p,
    };
  }
  const [xa, xb] = alignSteps(a, b) as [number[], number[]];
  const [xr, xg] = alignSteps(run, against) as [number[], number[]];
  if (xa.length < MIN_STEPS || xr.length < MIN_STEPS) return null;
  const [rab, rfl] = [finiteR(xa, xb), finiteR(xr, xg)];
  if (rab === null || rfl === null) return null;
  const nAB = effectiveSteps(
    xa.length,
    lag1Autocorrelation(xa.map((v, i) => v - (xb[i] as number))),
  );
  const nFl = effectiveSteps(
    xr.length,
    lag1Autocorrelation(xr.map((v, i) => v - (xg[i] as number))),
  );
  const t = compareCorrelations(rab, nAB, rfl, nFl);
  return {
    method: "fisher",
    shared: null,
    steps: xa.length,
    effective_steps: nAB,
    z: t.z,
    p: t.p,
  };
}

const METHOD =
  "Paired by step: d = a − b per shared step. Its mean's within-run standard error is a moving-block " +
  "bootstrap (block length from the lag-1 autocorrelation, Politis–White AR(1) plug-in; seeded). " +
  "Run-to-run drift is what the seed-repeat pair shows: its own mean per-step difference, squared " +
  "(at least its own standard error squared), is added to the variance (t with Satterthwaite " +
  "degrees of freedom, at most 3), tested at 4% and calibrated on stationary, random-walk and " +
  "level-shift drift. The correlation " +
  "is tested against the floor at 0.5% with Steiger's z for overlapping dependent correlations on " +
  "effective steps. The distributions of the per-step values are compared by the trimmed " +
  "1-Wasserstein distance (mean gap between the quantile functions from the 10th to the 90th " +
  "percentile, so a few spikes cannot hide or fake a shift) against the same distance between the " +
  "seed pair: more than 8 times it is 'differs' (at 0.5%, calibrated by simulation with Gaussian, " +
  "Student-t and spiky noise). 'Differs' when any fires: a 5% decision (Bonferroni 4% + 0.5% + 0.5%); " +
  "with no seed repeat or under " +
  `${MIN_STEPS} steps there is not enough evidence.`;

/** What cannot be decided, or null when both a and b and the seed pair are usable. */
function missing(
  a: StepSeries,
  b: StepSeries,
  run: StepSeries | null,
  against: StepSeries | null,
  steps: number,
  seedSteps: number,
): string | null {
  if (!run || !against)
    return "no seed repeat to say how much two runs of one configuration differ (mark one in run.json seed_repeat_of, or pass a baseline)";
  const pair = new Set([a.id, b.id]);
  if (pair.has(run.id) && pair.has(against.id))
    return "the two runs are the seed-repeat pair itself, so there is no separate yardstick";
  if (steps < MIN_STEPS) return `only ${steps} shared steps (at least ${MIN_STEPS} needed)`;
  if (seedSteps < MIN_STEPS)
    return `the seed pair shares only ${seedSteps} steps (at least ${MIN_STEPS} needed)`;
  return null;
}

/** The calibrated verdict on a vs b with the seed pair (run vs against) as the yardstick. */
export function calibratedVerdict(
  a: StepSeries,
  b: StepSeries,
  run: StepSeries | null,
  against: StepSeries | null,
  options: VerdictOptions = {},
): CalibratedVerdict {
  const seed = options.seed ?? 20260729;
  const [xa, xb] = alignSteps(a, b) as [number[], number[]];
  const [ma, mb] = options.means
    ? (alignSteps(options.means.a, options.means.b) as [number[], number[]])
    : [xa, xb];
  const d = ma.map((v, i) => v - (mb[i] as number));
  const [xr, xg] = run && against ? (alignSteps(run, against) as [number[], number[]]) : [[], []];
  const s = xr.map((v, i) => v - (xg[i] as number));
  const paired = d.length >= 2 ? summarise(d, seed, options.iterations) : null;
  const seedPair =
    run && against && s.length >= 2
      ? { ...summarise(s, seed + 1, options.iterations), run: run.id, against: against.id }
      : null;
  const base = {
    level: LEVEL,
    mean_level: MEAN_LEVEL,
    correlation_level: CORRELATION_LEVEL,
    shape_level: SHAPE_LEVEL,
    paired,
    seed_pair: seedPair,
    yardstick: "seed_pair" as const,
    seeds: null,
    method: METHOD,
  };
  const why = missing(a, b, run, against, d.length, s.length);
  const mean_test = !why && paired && seedPair ? meanTest(paired, seedPair) : null;
  if (why || !mean_test || !run || !against)
    return {
      ...base,
      decision: "not_enough_evidence",
      reason:
        why ?? "the per-step differences are all equal, so there is no spread to test against",
      mean_test: null,
      correlation_test: null,
      shape_test: null,
    };
  // Heavy tails in either per-step difference (a spike, or Student-t-like noise): Pearson's r and
  // Steiger's z assume none (on simulated spiky null triplets the test fired for 7% at 0.5%, with
  // Spearman's ranks too), so it is not run and the distribution test stands in.
  const shape_test = shapeTest(xa, xb, xr, xg);
  const correlation_test = shape_test?.heavy_tailed ? null : correlationTest(a, b, run, against);
  return { ...base, ...decide(mean_test, correlation_test, shape_test) };
}

type Tests = Pick<CalibratedVerdict, "mean_test" | "correlation_test" | "shape_test">;

/** "Differs" when any of the three tests fires at its level (Bonferroni), with which did. */
export function decide(
  mean_test: NonNullable<CalibratedVerdict["mean_test"]>,
  correlation_test: CalibratedVerdict["correlation_test"],
  shape_test: CalibratedVerdict["shape_test"],
): Tests & Pick<CalibratedVerdict, "decision" | "reason"> {
  const fired = [
    mean_test.p < MEAN_LEVEL ? `the mean difference (p = ${mean_test.p.toPrecision(2)})` : null,
    correlation_test && correlation_test.p < CORRELATION_LEVEL
      ? `the correlation below the floor (p = ${correlation_test.p.toPrecision(2)})`
      : null,
    shape_test?.fired
      ? `the distributions (trimmed Wasserstein ${shape_test.ratio.toPrecision(3)}× the seed pair's)`
      : null,
  ].filter((x) => x !== null);
  return {
    decision: fired.length > 0 ? "differs" : "within_noise",
    reason:
      fired.length > 0
        ? `fired: ${fired.join(" and ")}`
        : "none of the mean test (at 4%), the correlation test (at 0.5%) and the distribution test (at 0.5%) fired",
    mean_test,
    correlation_test,
    shape_test,
  };
}
