// The verdict when both sides are several seeds (runs) of one configuration each: Welch's t on the
// runs' means against each side's between-seed spread, with the correlation and distribution tests
// of ./calibrated on each side's first run (two seeds of b as their yardstick). Not responsible for
// finding the runs (./sides); a side of one run keeps the seed-pair verdict (sidesVerdict picks).
import type { CalibratedVerdict } from "@/lib/schema";
import {
  alignSteps,
  correlationTest,
  decide,
  LEVEL,
  MEAN_LEVEL,
  CORRELATION_LEVEL,
  MIN_STEPS,
  calibratedVerdict,
  sharedSteps,
  summarise,
  type StepSeries,
  type VerdictOptions,
} from "./calibrated";
import { blockBootstrapMean, studentQuantileTwoSided, studentTwoSidedP } from "./dependent";
import { SHAPE_LEVEL, shapeTest } from "./shape";

export type SeedSide = NonNullable<CalibratedVerdict["seeds"]>["a"];

/** A side's run means summarised for Welch: mean, per-run variance and count. */
export interface WelchSide {
  mean: number;
  variance: number;
  n: number;
}

/**
 * Welch's t for mean(a) − mean(b) with per-run variances s² (each side n ≥ 2): se² = s_a²/n_a +
 * s_b²/n_b, df = se⁴ / ((s_a²/n_a)²/(n_a − 1) + (s_b²/n_b)²/(n_b − 1)) (Welch–Satterthwaite).
 */
export function welch(
  a: WelchSide,
  b: WelchSide,
): { diff: number; se: number; t: number; df: number } {
  const va = a.variance / a.n,
    vb = b.variance / b.n;
  const se2 = va + vb;
  const df = (se2 * se2) / ((va * va) / (a.n - 1) + (vb * vb) / (b.n - 1));
  const diff = a.mean - b.mean;
  return { diff, se: Math.sqrt(se2), t: diff / Math.sqrt(se2), df };
}

const meanOf = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/**
 * Each run's mean over the aligned steps and its moving-block standard error. The error is the
 * bootstrap of the run's deviation from the per-step mean of all runs (`centre`): the learning
 * curve and the prompts all runs share would otherwise swamp it (and cancel in a − b anyway).
 */
function seedSide(
  runs: readonly StepSeries[],
  values: readonly number[][],
  centre: readonly number[],
  seed: number,
  iterations?: number,
): SeedSide {
  const rows = runs.map((r, i) => {
    const xs = values[i] as number[];
    const b = blockBootstrapMean(
      xs.map((x, t) => x - (centre[t] as number)),
      { seed: seed + i, iterations },
    );
    return { id: r.id, mean: meanOf(xs), se: b.sd, block_length: b.block_length };
  });
  const n = rows.length;
  const mean = meanOf(rows.map((r) => r.mean));
  const s2 = rows.reduce((s, r) => s + (r.mean - mean) ** 2, 0) / (n - 1);
  // A side whose seeds happen to agree closely is chance, not proof that runs agree: the spread is
  // floored at what the runs' own noise alone gives their means.
  const within = meanOf(rows.map((r) => r.se ** 2));
  return {
    runs: rows,
    n,
    mean,
    sd: Math.sqrt(s2),
    variance: Math.max(s2, within),
    floored: within > s2,
  };
}

/** The mean test on two seed sides: Welch's t, its p and the interval of the difference. */
export function seedMeanTest(
  a: SeedSide,
  b: SeedSide,
  level = MEAN_LEVEL,
): CalibratedVerdict["mean_test"] {
  if (!(a.variance + b.variance > 0)) return null;
  const w = welch(a, b);
  const q = studentQuantileTwoSided(level, w.df);
  return {
    t: w.t,
    df: w.df,
    p: studentTwoSidedP(w.t, w.df),
    se: w.se,
    low: w.diff - q * w.se,
    high: w.diff + q * w.se,
    level: 1 - level,
  };
}

const METHOD =
  "Seeds as groups: each run's effect is its mean of the scalar over the steps every run of both " +
  "sides shares, with a moving-block bootstrap standard error (of its deviation from the all-run " +
  "per-step mean). The mean test is Welch's t on mean(a's run means) − mean(b's run means), each " +
  "side's per-run variance its seeds' sample variance (at least its runs' mean squared standard " +
  "error), on Welch–Satterthwaite degrees of freedom, at 4%; calibrated by simulation with 2, 3 " +
  "and 5 seeds per side on stationary, random-walk and level-shift drift. The correlation test " +
  "(Steiger's z, at 0.5%) and the distribution test (trimmed 1-Wasserstein, more than 8 times the " +
  "seed pair's, at 0.5%) compare the first run of each side, with b's first two seeds as the seed " +
  "pair. 'Differs' when any fires: a 5% decision (Bonferroni 4% + 0.5% + 0.5%).";

/** A run on both sides, which makes them no longer separate seeds, as words; else null. */
function onBothSides(a: readonly StepSeries[], b: readonly StepSeries[]): string | null {
  const inA = new Set(a.map((r) => r.id));
  const both = b.find((r) => inA.has(r.id));
  return both ? `${both.id} is on both sides, so the sides are not separate seeds` : null;
}

/** Why the seed groups cannot be tested, or null. */
function missing(a: readonly StepSeries[], b: readonly StepSeries[], steps: number): string | null {
  const both = onBothSides(a, b);
  if (both) return both;
  if (steps < MIN_STEPS)
    return `only ${steps} steps shared by all ${a.length + b.length} runs (at least ${MIN_STEPS} needed)`;
  return null;
}

/** The verdict on seeds `a` (at least 2) against seeds `b` (at least 2); first runs lead. */
export function seedGroupVerdict(
  a: readonly StepSeries[],
  b: readonly StepSeries[],
  options: VerdictOptions = {},
): CalibratedVerdict {
  if (a.length < 2 || b.length < 2) throw new Error("seedGroupVerdict needs 2 seeds per side");
  const seed = options.seed ?? 20260729;
  const all = alignSteps(...a, ...b);
  const steps = all[0]?.length ?? 0;
  const [va, vb] = [all.slice(0, a.length), all.slice(a.length)];
  const centre = Array.from({ length: steps }, (_, t) => meanOf(all.map((xs) => xs[t] as number)));
  const sideMean = (vs: number[][]) =>
    centre.map((_, t) => meanOf(vs.map((xs) => xs[t] as number)));
  const [ma, mb] = [sideMean(va), sideMean(vb)];
  const [a0, b0, b1] = [va[0] as number[], vb[0] as number[], vb[1] as number[]];
  const base = {
    level: LEVEL,
    mean_level: MEAN_LEVEL,
    correlation_level: CORRELATION_LEVEL,
    shape_level: SHAPE_LEVEL,
    paired:
      steps >= 2
        ? summarise(
            ma.map((x, t) => x - (mb[t] as number)),
            seed,
            options.iterations,
          )
        : null,
    seed_pair:
      steps >= 2
        ? {
            ...summarise(
              b1.map((x, t) => x - (b0[t] as number)),
              seed + 1,
              options.iterations,
            ),
            run: (b[1] as StepSeries).id,
            against: (b[0] as StepSeries).id,
          }
        : null,
    yardstick: "seeds" as const,
    method: METHOD,
  };
  const why = missing(a, b, steps);
  const seeds = why
    ? null
    : {
        steps,
        a: seedSide(a, va, centre, seed + 10, options.iterations),
        b: seedSide(b, vb, centre, seed + 10 + a.length, options.iterations),
      };
  const mean_test = seeds ? seedMeanTest(seeds.a, seeds.b) : null;
  if (!seeds || !mean_test)
    return {
      ...base,
      seeds,
      decision: "not_enough_evidence",
      reason:
        why ?? "every run has the same mean and no spread, so there is nothing to test against",
      mean_test: null,
      correlation_test: null,
      shape_test: null,
    };
  const shape_test = shapeTest(a0, b0, b1, b0);
  const correlation_test = shape_test?.heavy_tailed
    ? null
    : correlationTest(
        a[0] as StepSeries,
        b[0] as StepSeries,
        b[1] as StepSeries,
        b[0] as StepSeries,
      );
  return { ...base, seeds, ...decide(mean_test, correlation_test, shape_test) };
}

/** A side's per-step mean over its runs at the steps all of them have (one run: the run itself). */
export function sideMean(runs: readonly StepSeries[], id: string): StepSeries {
  if (runs.length === 1) return runs[0] as StepSeries;
  const steps = sharedSteps(...runs);
  return {
    id,
    byStep: new Map(steps.map((t) => [t, meanOf(runs.map((r) => r.byStep.get(t) as number))])),
  };
}

/** Per step: the side's mean ± one sample standard deviation (n − 1) across its runs. */
export function sideBand(
  runs: readonly StepSeries[],
  steps: readonly number[],
): Array<{ low: number; high: number }> {
  return steps.map((t) => {
    const xs = runs.map((r) => r.byStep.get(t) as number);
    const m = meanOf(xs);
    const sd = Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
    return { low: m - sd, high: m + sd };
  });
}

/**
 * The verdict on sides of runs (the first of each leads): Welch on the seeds when both have two or
 * more; otherwise the seed-pair verdict on the first runs, its mean test on the sides' per-step
 * means (a side of one run is its run, so one run per side is exactly the seed-pair verdict).
 */
export function sidesVerdict(
  a: readonly StepSeries[],
  b: readonly StepSeries[],
  pair: { run: StepSeries; against: StepSeries } | null,
  options: VerdictOptions = {},
): CalibratedVerdict {
  if (a.length >= 2 && b.length >= 2) return seedGroupVerdict(a, b, options);
  const [a0, b0] = [a[0] as StepSeries, b[0] as StepSeries];
  const both = a.length > 1 || b.length > 1 ? onBothSides(a, b) : null;
  if (both) return { ...calibratedVerdict(a0, b0, null, null, options), reason: both };
  const means =
    a.length > 1 || b.length > 1
      ? { a: sideMean(a, `${a0.id} +`), b: sideMean(b, `${b0.id} +`) }
      : undefined;
  return calibratedVerdict(a0, b0, pair?.run ?? null, pair?.against ?? null, { ...options, means });
}
