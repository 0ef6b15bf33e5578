// The distribution test of the calibrated verdict: do a's per-step values sit where b's do, as far
// as two seeds of one configuration tell? The mean test cannot see this on a spiky scalar (one
// spike moves a mean more than a whole shift of the bulk), so this compares quantile functions:
// the trimmed 1-Wasserstein distance, the mean |Q_a(u) − Q_b(u)| over u in [0.1, 0.9], which
// ignores the 10% tails on either side. Its yardstick is the same distance between the seed repeat
// and the run it repeats; "differs" when the ratio passes SHAPE_CRITICAL, a value calibrated by
// simulation (lib/compare/calibration.test.ts). Not responsible for pairing steps (./calibrated).
/** The quantile levels the trimmed distance averages over: 0.10, 0.11, …, 0.90. */
const LEVELS = Array.from({ length: 81 }, (_, i) => 0.1 + i / 100);

/**
 * "Differs" when W(a, b) > SHAPE_CRITICAL · W(seed pair). The largest 99.5th percentile of that
 * ratio over 2,000 simulated null triplets of each family (Gaussian, Student t df = 2 noise,
 * lognormal spikes: 4.5, 4.3, 7.6, in a numpy re-simulation of ./simulate's families while choosing
 * it) is 7.6, rounded up to 8: a stated level of 0.5%. lib/compare/calibration.test.ts checks the
 * resulting false-alarm rate on triplets from ./simulate itself.
 */
export const SHAPE_CRITICAL = 8;
export const SHAPE_LEVEL = 0.005;

/** Linear-interpolated quantile of sorted values (numpy's default method). */
function q(s: readonly number[], u: number): number {
  const h = (s.length - 1) * u,
    lo = Math.floor(h);
  const x = s[lo] as number;
  return lo + 1 < s.length ? x + (h - lo) * ((s[lo + 1] as number) - x) : x;
}

const sorted = (xs: readonly number[]) => [...xs].sort((x, y) => x - y);

/** Mean |Q_x(u) − Q_y(u)| over u in [0.1, 0.9] (81 levels): a 1-Wasserstein distance without the tails. */
export function trimmedWasserstein(x: readonly number[], y: readonly number[]): number {
  const sx = sorted(x),
    sy = sorted(y);
  let s = 0;
  for (const u of LEVELS) s += Math.abs(q(sx, u) - q(sy, u));
  return s / LEVELS.length;
}

/** The full 1-Wasserstein distance between two samples' empirical distributions (scipy's). */
export function wasserstein(x: readonly number[], y: readonly number[]): number {
  const sx = sorted(x),
    sy = sorted(y);
  const all = sorted([...sx, ...sy]);
  let i = 0,
    j = 0,
    s = 0;
  for (let k = 0; k + 1 < all.length; k++) {
    const t = all[k] as number;
    while (i < sx.length && (sx[i] as number) <= t) i++;
    while (j < sy.length && (sy[j] as number) <= t) j++;
    s += Math.abs(i / sx.length - j / sy.length) * ((all[k + 1] as number) - t);
  }
  return s;
}

/** Median of the values. */
export const median = (xs: readonly number[]): number => q(sorted(xs), 0.5);

/** On a per-step difference (where the shared curve cancels) the heavy-tail cut is 5 IQRs; on a
 * run's own values a learning curve alone can reach far from the median, so this is only used on
 * differences. */
export const HEAVY_DIFF_IQRS = 5;

/**
 * Heavy-tailed: some value lies more than `iqrs` interquartile ranges from the median (a Gaussian
 * value is beyond 5 IQRs, 6.7 sds, with probability 2·10⁻¹¹). On the per-step differences, the
 * headline then speaks of medians rather than means, and the correlation test is not run.
 */
export function heavyTailed(xs: readonly number[], iqrs = HEAVY_DIFF_IQRS): boolean {
  if (xs.length < 4) return false;
  const s = sorted(xs);
  const m = q(s, 0.5),
    iqr = q(s, 0.75) - q(s, 0.25);
  return s.some((x) => Math.abs(x - m) > iqrs * iqr);
}

export interface ShapeTest {
  /** Trimmed W1 between a and b, and between the seed repeat and the run it repeats. */
  distance: number;
  seed_distance: number;
  ratio: number;
  critical: number;
  /** Full W1 of both pairs (tails included), shown beside the trimmed one. */
  w1: number;
  seed_w1: number;
  median_a: number;
  median_b: number;
  seed_median_run: number;
  seed_median_against: number;
  heavy_tailed: boolean;
  fired: boolean;
}

/**
 * a, b: the compared runs' values at their shared steps (in step order); run, against: the seed
 * pair's. Heavy-tailed when a per-step difference is (the shared learning curve cancels there).
 */
export function shapeTest(
  a: readonly number[],
  b: readonly number[],
  run: readonly number[],
  against: readonly number[],
): ShapeTest | null {
  if (a.length < 2 || run.length < 2) return null;
  const distance = trimmedWasserstein(a, b),
    seed_distance = trimmedWasserstein(run, against);
  const ratio =
    seed_distance > 0 ? distance / seed_distance : distance > 0 ? Number.POSITIVE_INFINITY : 0;
  if (!Number.isFinite(ratio) && !(distance > 0)) return null;
  return {
    distance,
    seed_distance,
    ratio: Number.isFinite(ratio) ? ratio : Number.MAX_VALUE,
    critical: SHAPE_CRITICAL,
    w1: wasserstein(a, b),
    seed_w1: wasserstein(run, against),
    median_a: median(a),
    median_b: median(b),
    seed_median_run: median(run),
    seed_median_against: median(against),
    heavy_tailed:
      heavyTailed(
        a.map((x, i) => x - (b[i] as number)),
        HEAVY_DIFF_IQRS,
      ) ||
      heavyTailed(
        run.map((x, i) => x - (against[i] as number)),
        HEAVY_DIFF_IQRS,
      ),
    fired: ratio > SHAPE_CRITICAL,
  };
}
