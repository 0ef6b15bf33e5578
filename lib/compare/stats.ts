// Statistics for comparing runs, as pure functions: means, Pearson correlation, rolling means,
// seeded percentile bootstraps (one sample, difference of two, paired), the exact sign test, the
// paired sign-flip permutation test, and Fisher's z for comparing two correlations.
// Building blocks come from simple-statistics; resampling uses our seeded PRNG so answers are stable.
import {
  binomialDistribution,
  errorFunction,
  mean as ssMean,
  quantileSorted,
  sampleCorrelation,
} from "simple-statistics";
import type { Interval, PermutationTest, SignTest } from "@/lib/schema";
import { SeededRandom } from "./prng";

export interface BootstrapOptions {
  iterations?: number;
  seed?: number;
  level?: number;
}

const DEFAULTS = { iterations: 2000, seed: 20260729, level: 0.95 };

export function mean(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error("mean of an empty sample");
  return ssMean(xs as number[]);
}

/** NaN (a constant series has no correlation) becomes null, which JSON can carry. */
export const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

export function pearson(x: readonly number[], y: readonly number[]): number {
  if (x.length !== y.length) throw new Error(`pearson: ${x.length} vs ${y.length} values`);
  if (x.length < 3) throw new Error("pearson needs at least 3 pairs");
  return sampleCorrelation(x as number[], y as number[]);
}

/** Trailing mean over up to `window` values (fewer at the start). */
export function rollingMean(xs: readonly number[], window: number): number[] {
  const out: number[] = [];
  let sum = 0;
  for (let i = 0; i < xs.length; i++) {
    sum += xs[i] as number;
    if (i >= window) sum -= xs[i - window] as number;
    out.push(sum / Math.min(i + 1, window));
  }
  return out;
}

function resampleMean(xs: readonly number[], rng: SeededRandom): number {
  const n = xs.length;
  let s = 0;
  for (let i = 0; i < n; i++) s += xs[Math.floor(rng.next() * n)] as number;
  return s / n;
}

function percentileInterval(estimate: number, stats: number[], level: number): Interval {
  stats.sort((a, b) => a - b);
  const alpha = (1 - level) / 2;
  return {
    estimate,
    low: quantileSorted(stats, alpha),
    high: quantileSorted(stats, 1 - alpha),
    level,
  };
}

/** Percentile bootstrap interval of the mean. */
export function bootstrapMean(xs: readonly number[], options: BootstrapOptions = {}): Interval {
  const o = { ...DEFAULTS, ...options };
  const rng = new SeededRandom(o.seed);
  const stats: number[] = [];
  for (let b = 0; b < o.iterations; b++) stats.push(resampleMean(xs, rng));
  return percentileInterval(mean(xs), stats, o.level);
}

/** Percentile bootstrap interval of mean(a) - mean(b), resampling each independently. */
export function bootstrapMeanDifference(
  a: readonly number[],
  b: readonly number[],
  options: BootstrapOptions = {},
): Interval {
  const o = { ...DEFAULTS, ...options };
  const rng = new SeededRandom(o.seed);
  const stats: number[] = [];
  for (let i = 0; i < o.iterations; i++) stats.push(resampleMean(a, rng) - resampleMean(b, rng));
  return percentileInterval(mean(a) - mean(b), stats, o.level);
}

export function signTest(diffs: readonly number[]): SignTest {
  const positive = diffs.filter((d) => d > 0).length;
  const negative = diffs.filter((d) => d < 0).length;
  const n = positive + negative;
  if (n === 0) return { positive, negative, ties: diffs.length, p: 1 };
  const pmf = binomialDistribution(n, 0.5) as number[];
  const k = Math.min(positive, negative);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += pmf[i] ?? 0;
  return { positive, negative, ties: diffs.length - n, p: Math.min(1, 2 * tail) };
}

/**
 * Paired sign-flip permutation test of mean difference = 0, two-sided. Exact (every sign pattern)
 * up to 16 pairs; otherwise Monte Carlo with the (count + 1) / (iterations + 1) estimate.
 */
export function pairedPermutationTest(
  diffs: readonly number[],
  options: { iterations?: number; seed?: number } = {},
): PermutationTest {
  const n = diffs.length;
  if (n === 0) return { p: 1, exact: true, iterations: 0 };
  const observed = Math.abs(diffs.reduce((a, b) => a + b, 0));
  const eps = 1e-12 * Math.max(1, observed);
  if (n <= 16) {
    let extreme = 0;
    const total = 2 ** n;
    for (let mask = 0; mask < total; mask++) {
      let s = 0;
      for (let i = 0; i < n; i++)
        s += mask & (1 << i) ? -(diffs[i] as number) : (diffs[i] as number);
      if (Math.abs(s) >= observed - eps) extreme++;
    }
    return { p: extreme / total, exact: true, iterations: total };
  }
  const iterations = options.iterations ?? 10_000;
  const rng = new SeededRandom(options.seed ?? DEFAULTS.seed);
  let extreme = 0;
  for (let it = 0; it < iterations; it++) {
    let s = 0;
    for (let i = 0; i < n; i++)
      s += rng.next() < 0.5 ? -(diffs[i] as number) : (diffs[i] as number);
    if (Math.abs(s) >= observed - eps) extreme++;
  }
  return { p: (extreme + 1) / (iterations + 1), exact: false, iterations };
}

export function normalCdf(z: number): number {
  return 0.5 * (1 + errorFunction(z / Math.SQRT2));
}

/**
 * Is correlation r1 (n1 pairs) lower than r2 (n2 pairs)? Fisher's z: z = (atanh r2 - atanh r1) /
 * sqrt(1/(n1-3) + 1/(n2-3)), one-sided p = 1 - Φ(z).
 */
export function compareCorrelations(
  r1: number,
  n1: number,
  r2: number,
  n2: number,
): { z: number; p: number } {
  const z = (Math.atanh(r2) - Math.atanh(r1)) / Math.sqrt(1 / (n1 - 3) + 1 / (n2 - 3));
  return { z, p: 1 - normalCdf(z) };
}
