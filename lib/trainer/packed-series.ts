// Scalar series in typed arrays: how a worker collects a trainer file's points (millions of
// records never become millions of objects), keeps one point per step, cuts a series to a bound
// and sends it back (the arrays transferred, not copied). Non-finite values are coded 1 NaN,
// 2 +Infinity, 3 −Infinity. Pure. The object form (./scalar-series) is what the rest of the code
// reads: `unpack` makes it from a bounded series. A worker also sends each series' facts (its
// finite mean, chart points and gaps), so the server's thread never walks 200,000 points to draw
// a curve or list a run.
import { mean as ssMean } from "simple-statistics";
import { chartStride, type ScalarPoint, type ScalarSeries } from "./scalar-series";

export interface PackedSeries {
  tag: string;
  sources: string[];
  steps: Float64Array;
  wall: Float64Array;
  values: Float64Array;
  nonFinite: Uint8Array;
  /** What pages read of the whole series, when a worker worked it out (`factsOf`). */
  facts?: SeriesFacts;
}

/** What the run list, health and curves read of a series: worked out once, on the packed form. */
export interface SeriesFacts {
  /** Its points (steps). */
  count: number;
  /** Whether any point has a finite value. */
  hasValue: boolean;
  /** The mean of its finite values (simple-statistics' compensated sum); null without one. */
  finiteMean: number | null;
  /** `chartPoints` of the series at CURVE_MAX_POINTS: every stride-th point and every gap. */
  chart: Array<{ step: number; value: number | null }>;
  /** Its non-finite points (a literal kept): steps, and the literals' codes (`nonFiniteLiteral`). */
  gapSteps: Float64Array;
  gapCodes: Uint8Array;
}

const NON_FINITE = [undefined, "NaN", "Infinity", "-Infinity"] as const;

/** A series' points growing in place (doubling), with the files they came from. */
class Growing {
  n = 0;
  steps = new Float64Array(64);
  wall = new Float64Array(64);
  values = new Float64Array(64);
  nonFinite = new Uint8Array(64);
  readonly sources = new Set<string>();

  push(p: ScalarPoint): void {
    if (this.n === this.steps.length) {
      const grow = <A extends Float64Array | Uint8Array>(a: A): A => {
        const b = new (a.constructor as new (n: number) => A)(a.length * 2);
        b.set(a);
        return b;
      };
      [this.steps, this.wall, this.values] = [grow(this.steps), grow(this.wall), grow(this.values)];
      this.nonFinite = grow(this.nonFinite);
    }
    setPoint(this, this.n++, p);
  }

  /** One point per step, by step: the latest wall time, on a tie the last added. */
  onePerStep(tag: string): PackedSeries {
    const order = new Uint32Array(this.n);
    for (let i = 0; i < this.n; i++) order[i] = i;
    // Typed-array sort is not stable: the index breaks ties, so "last added" is well defined.
    order.sort((a, b) => this.steps[a]! - this.steps[b]! || a - b);
    const keep: number[] = [];
    for (const i of order) {
      const last = keep.length - 1;
      const prev = keep[last];
      if (prev !== undefined && this.steps[prev] === this.steps[i]) {
        if (this.wall[i]! >= this.wall[prev]!) keep[last] = i;
      } else keep.push(i);
    }
    return pick(tag, [...this.sources], this, keep);
  }
}

/** Writes `p` at index `i` of the arrays (the one home of the packed coding). */
function setPoint(into: Omit<PackedSeries, "tag" | "sources">, i: number, p: ScalarPoint): void {
  into.steps[i] = p.step;
  into.wall[i] = p.wall_time;
  into.values[i] = p.value ?? NaN;
  into.nonFinite[i] = p.non_finite ? NON_FINITE.indexOf(p.non_finite) : 0;
}

function pick(
  tag: string,
  sources: string[],
  from: Pick<PackedSeries, "steps" | "wall" | "values" | "nonFinite">,
  at: readonly number[],
): PackedSeries {
  const out = empty(tag, sources, at.length);
  at.forEach((i, k) => {
    out.steps[k] = from.steps[i]!;
    out.wall[k] = from.wall[i]!;
    out.values[k] = from.values[i]!;
    out.nonFinite[k] = from.nonFinite[i]!;
  });
  return out;
}

function empty(tag: string, sources: string[], n: number): PackedSeries {
  return {
    tag,
    sources,
    steps: new Float64Array(n),
    wall: new Float64Array(n),
    values: new Float64Array(n),
    nonFinite: new Uint8Array(n),
  };
}

/** Collects a file's points per tag in typed arrays (the sink the file readers write into). */
export class PackedCollector {
  private readonly byTag = new Map<string, Growing>();

  add(tag: string, source: string, point: ScalarPoint): void {
    let s = this.byTag.get(tag);
    if (!s) this.byTag.set(tag, (s = new Growing()));
    s.sources.add(source);
    s.push(point);
  }

  /** Series sorted by tag, one point per step (as ./scalar-series SeriesCollector keeps them). */
  series(): PackedSeries[] {
    return [...this.byTag.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([tag, s]) => s.onePerStep(tag));
  }
}

/**
 * The series cut to `max` points: consecutive steps in equal buckets, each the mean of its finite
 * values at its last step (a bucket of gaps stays a gap, its last point). Shorter series are kept.
 */
export function thinPacked(s: PackedSeries, max: number): PackedSeries {
  const n = s.steps.length;
  if (n <= max) return s;
  const out = empty(s.tag, s.sources, max);
  for (let b = 0; b < max; b++) {
    const from = Math.floor((b * n) / max);
    const to = Math.floor(((b + 1) * n) / max);
    let sum = 0;
    let k = 0;
    for (let i = from; i < to; i++) {
      if (s.nonFinite[i]) continue;
      sum += s.values[i]!;
      k++;
    }
    const last = to - 1;
    out.steps[b] = s.steps[last]!;
    out.wall[b] = s.wall[last]!;
    out.values[b] = k ? sum / k : s.values[last]!;
    out.nonFinite[b] = k ? 0 : s.nonFinite[last]!;
  }
  return out;
}

/** The series' facts, in one pass over its arrays. */
export function factsOf(p: PackedSeries): SeriesFacts {
  const n = p.steps.length;
  const stride = chartStride(n);
  const finite: number[] = [];
  const chart: SeriesFacts["chart"] = [];
  const gaps: number[] = [];
  for (let i = 0; i < n; i++) {
    // A point without a value is NaN here (a null one, or a non-finite one with its literal coded).
    const gap = Number.isNaN(p.values[i]);
    if (!gap) finite.push(p.values[i]!);
    if (p.nonFinite[i] !== 0) gaps.push(i);
    if (i % stride === 0 || gap)
      chart.push({ step: p.steps[i]!, value: gap ? null : p.values[i]! });
  }
  return {
    count: n,
    hasValue: finite.length > 0,
    finiteMean: finite.length > 0 ? ssMean(finite) : null,
    chart,
    gapSteps: Float64Array.from(gaps, (i) => p.steps[i]!),
    gapCodes: Uint8Array.from(gaps, (i) => p.nonFinite[i]!),
  };
}

/** The literal a gap's code stands for. */
export const nonFiniteLiteral = (code: number) => NON_FINITE[code] ?? "NaN";

const known = new WeakMap<ScalarSeries, SeriesFacts>();

/** The facts of an object series: those its packed form came with, else worked out once. */
export function seriesFacts(s: ScalarSeries): SeriesFacts {
  let f = known.get(s);
  if (!f) known.set(s, (f = factsOf(pack(s))));
  return f;
}

export function pack(s: ScalarSeries): PackedSeries {
  const out = empty(s.tag, s.sources, s.points.length);
  s.points.forEach((p, i) => setPoint(out, i, p));
  return out;
}

export function unpack(p: PackedSeries): ScalarSeries {
  const points: ScalarPoint[] = new Array(p.steps.length);
  for (let i = 0; i < p.steps.length; i++) {
    const code = p.nonFinite[i] ?? 0;
    const point: ScalarPoint = { step: p.steps[i]!, wall_time: p.wall[i]!, value: null };
    if (code === 0) point.value = p.values[i]!;
    else point.non_finite = NON_FINITE[code];
    points[i] = point;
  }
  const series = { tag: p.tag, sources: p.sources, points };
  if (p.facts) known.set(series, p.facts);
  return series;
}

/**
 * The object form whose points are made on first read: what the run list, health and curves read
 * (`seriesFacts`) never turns a file's 200,000 points into objects on the server's thread, nor
 * leaves them for its garbage collector to walk. Only a page that reads every point (compare's
 * step pairs, the mismatch join) makes them, once.
 */
export function lazySeries(p: PackedSeries): ScalarSeries {
  let packed: PackedSeries | null = p;
  let points: ScalarPoint[] | null = null;
  const series = { tag: p.tag, sources: p.sources } as ScalarSeries;
  Object.defineProperty(series, "points", {
    enumerable: true,
    get: () => {
      if (points === null) [points, packed] = [unpack(packed!).points, null];
      return points;
    },
  });
  known.set(series, p.facts ?? factsOf(p));
  return series;
}

/** The object form's thinning, done on the packed form (one home for the rule). */
export function thin(s: ScalarSeries, max: number): ScalarSeries {
  return s.points.length <= max ? s : unpack(thinPacked(pack(s), max));
}
