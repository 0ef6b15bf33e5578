// The shape every trainer-log reader produces: per tag a series of (step, wall time, value), and
// the notes on what was skipped. NaN and ±Infinity are kept as gaps (value null, the literal kept)
// so JSON can carry them and a chart breaks its line there. Merging keeps one point per step: the
// one written last, as a restarted trainer's later write replaces an earlier one. Pure.

export interface ScalarPoint {
  step: number;
  /** Seconds since the epoch, as the trainer wrote it. */
  wall_time: number;
  /** null for NaN or ±Infinity (see `non_finite`). */
  value: number | null;
  non_finite?: "NaN" | "Infinity" | "-Infinity";
}

export interface ScalarSeries {
  tag: string;
  /** Which files the points came from (base names), in the order read. */
  sources: string[];
  points: ScalarPoint[];
}

/** A scalar point; a non-finite value becomes a gap that remembers its literal. */
export function pointOf(step: number, wallTime: number, value: number): ScalarPoint {
  if (Number.isFinite(value)) return { step, wall_time: wallTime, value };
  const literal = Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
  return { step, wall_time: wallTime, value: null, non_finite: literal };
}

/** Where a file reader puts its points: ./scalar-series's collector or ./packed-series's. */
export interface PointSink {
  add(tag: string, source: string, point: ScalarPoint): void;
}

/** Collects points per tag from any number of files. */
export class SeriesCollector implements PointSink {
  private readonly byTag = new Map<string, { sources: Set<string>; points: ScalarPoint[] }>();

  add(tag: string, source: string, point: ScalarPoint): void {
    let s = this.byTag.get(tag);
    if (!s) this.byTag.set(tag, (s = { sources: new Set(), points: [] }));
    s.sources.add(source);
    s.points.push(point);
  }

  /** Series sorted by tag; points by step, one per step (the latest wall time; on a tie, the last added). */
  series(): ScalarSeries[] {
    return [...this.byTag.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([tag, s]) => ({ tag, sources: [...s.sources], points: onePerStep(s.points) }));
  }
}

function onePerStep(points: ScalarPoint[]): ScalarPoint[] {
  // One file's series comes already one per step, in order: kept as it is, not sorted again.
  let ordered = true;
  for (let i = 1; i < points.length && ordered; i++)
    ordered = points[i - 1]!.step < points[i]!.step;
  if (ordered) return points;
  const byStep = new Map<number, ScalarPoint>();
  for (const p of points) {
    const prev = byStep.get(p.step);
    if (!prev || p.wall_time >= prev.wall_time) byStep.set(p.step, p);
  }
  return [...byStep.values()].sort((a, b) => a.step - b.step);
}

/** Points a chart of one series draws at most: about one per pixel of a wide chart. */
export const CURVE_MAX_POINTS = 1000;

/** The stride a chart of `n` points keeps every `stride`-th point at (plus every gap). */
export const chartStride = (n: number, maxPoints = CURVE_MAX_POINTS) =>
  Math.max(1, Math.ceil(n / maxPoints));

/**
 * Every `stride`-th point of the series, at most about `maxPoints`, and every gap (a NaN step) so
 * no line is drawn across it. A loop, not array chains: a series may hold 200,000 points.
 */
export function chartPoints(
  points: readonly ScalarPoint[],
  maxPoints = CURVE_MAX_POINTS,
): Array<{ step: number; value: number | null }> {
  const stride = chartStride(points.length, maxPoints);
  const out: Array<{ step: number; value: number | null }> = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    if (i % stride === 0 || p.value === null) out.push({ step: p.step, value: p.value });
  }
  return out;
}
