// Statistics for series that are paired by step and serially dependent: the lag-1 autocorrelation,
// an AR(1) plug-in block length, the moving-block bootstrap of a mean (seeded), Student's t with
// fractional degrees of freedom, and Steiger's z for two overlapping dependent correlations.
// Pure numbers only: which series to pair and how to decide lives in ./calibrated.
import { gammaln, mean as ssMean } from "simple-statistics";
import { SeededRandom } from "./prng";

/** Sample lag-1 autocorrelation (deviations from the mean, over the full sum of squares). */
export function lag1Autocorrelation(xs: readonly number[]): number {
  const n = xs.length;
  if (n < 3) return 0;
  const m = ssMean(xs as number[]);
  let num = 0,
    den = 0;
  for (let i = 0; i < n; i++) {
    const u = (xs[i] as number) - m;
    den += u * u;
    if (i > 0) num += u * ((xs[i - 1] as number) - m);
  }
  return den === 0 ? 0 : num / den;
}

/**
 * Block length for the moving-block bootstrap of a mean: Politis & White's (2004, corrected 2009)
 * optimal b = (2G²/D)^(1/3) n^(1/3) with an AR(1) plug-in for the autocovariances, which reduces to
 * (√6 ρ / (1 − ρ²))^(2/3) n^(1/3), ρ the lag-1 autocorrelation clamped to [0, 0.95]. Rounded and kept
 * in [1, n/4] so at least four blocks remain.
 */
export function blockLength(xs: readonly number[]): number {
  const n = xs.length;
  const rho = Math.min(0.95, Math.max(0, lag1Autocorrelation(xs)));
  const b = Math.round(((Math.sqrt(6) * rho) / (1 - rho * rho)) ** (2 / 3) * Math.cbrt(n));
  return Math.max(1, Math.min(b, Math.floor(n / 4)));
}

export interface BlockBootstrap {
  estimate: number;
  /** Standard deviation of the resampled means: the standard error under short memory. */
  sd: number;
  block_length: number;
  lag1: number;
  iterations: number;
}

/**
 * Moving-block bootstrap of the mean: each resample concatenates ceil(n/L) blocks of L consecutive
 * values with starts uniform over [0, n − L], truncated to n values. Seeded, so stable.
 */
export function blockBootstrapMean(
  xs: readonly number[],
  options: { iterations?: number; seed?: number; blockLength?: number } = {},
): BlockBootstrap {
  const n = xs.length;
  if (n < 2) throw new Error("block bootstrap needs at least 2 values");
  const L = options.blockLength ?? blockLength(xs);
  const iterations = options.iterations ?? 2000;
  const rng = new SeededRandom(options.seed ?? 20260729);
  const starts = n - L + 1;
  const means: number[] = [];
  for (let b = 0; b < iterations; b++) {
    let s = 0,
      taken = 0;
    while (taken < n) {
      const start = Math.floor(rng.next() * starts);
      for (let j = 0; j < L && taken < n; j++, taken++) s += xs[start + j] as number;
    }
    means.push(s / n);
  }
  const m = ssMean(means);
  const v = means.reduce((acc, x) => acc + (x - m) ** 2, 0) / (iterations - 1);
  return {
    estimate: ssMean(xs as number[]),
    sd: Math.sqrt(v),
    block_length: L,
    lag1: lag1Autocorrelation(xs),
    iterations,
  };
}

/** Continued fraction for the regularized incomplete beta (modified Lentz). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1,
    d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 300; m++) {
    for (const num of [
      (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m)),
      (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1)),
    ]) {
      d = 1 + num * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + num / c;
      if (Math.abs(c) < tiny) c = tiny;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-15) break;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const lnFront = gammaln(a + b) - gammaln(a) - gammaln(b) + a * Math.log(x) + b * Math.log1p(-x);
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(lnFront) * betaContinuedFraction(a, b, x)) / a;
  return 1 - (Math.exp(lnFront) * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** Two-sided p value of Student's t with `df` (fractional allowed) degrees of freedom. */
export function studentTwoSidedP(t: number, df: number): number {
  if (!Number.isFinite(t)) return 0;
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** The t value whose two-sided p is `p` (bisection on the distribution function). */
export function studentQuantileTwoSided(p: number, df: number): number {
  let lo = 0,
    hi = 1;
  while (studentTwoSidedP(hi, df) > p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (studentTwoSidedP(mid, df) > p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Steiger's (1980, eq. 15, pooled r̄) z for H0: ρ_jk = ρ_jh, two correlations that share variable j,
 * with r_kh the correlation of the two others. Positive z: r_jk < r_jh.
 */
export function steigerZ(rjk: number, rjh: number, rkh: number, n: number): number {
  const rm = (rjk + rjh) / 2;
  const psi = rkh * (1 - 2 * rm * rm) - 0.5 * rm * rm * (1 - 2 * rm * rm - rkh * rkh);
  const s = psi / (1 - rm * rm) ** 2;
  return ((Math.atanh(rjh) - Math.atanh(rjk)) * Math.sqrt(n - 3)) / Math.sqrt(2 - 2 * s);
}

/**
 * Steps' worth of independent information in a serially dependent pair of series: Bartlett's
 * variance inflation with the lag-1 autocorrelation ρ ≥ 0, n_eff = 3 + (n − 3)(1 − ρ)/(1 + ρ).
 */
export function effectiveSteps(n: number, rho: number): number {
  const r = Math.min(0.95, Math.max(0, rho));
  return 3 + ((n - 3) * (1 - r)) / (1 + r);
}
