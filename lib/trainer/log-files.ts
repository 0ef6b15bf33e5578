// The trainer's files parsed on a store worker thread (the pools of lib/rollout/pool), so a huge
// event file or MLflow metric file never holds the server's event loop: the worker reads the file
// through lib/store's watched readers (a stalled mount fails the job after the read deadline),
// parses it, cuts every series to a bounded number of points and sends them back packed in typed
// arrays (transferred, not copied). Without a worker the same runs in this thread. Not
// responsible for which files a run has (./read-logs) or for caching (./read-logs, by version).
import "server-only";
import { readRegularFile, type JobContext } from "@/lib/store";
import { readEventFile } from "./event-scalars";
import { readMlflowMetric } from "./mlflow";
import { SeriesCollector, type ScalarPoint, type ScalarSeries } from "./scalar-series";

/** Larger than any scalar log a trainer writes: refused rather than held in memory. */
export const TRAINER_LOG_MAX_BYTES = 256 << 20;
/** The points one file may send back in all: a page charts ≤ 1,000 a series, compare pairs steps. */
export const FILE_POINTS = 200_000;
/** The least any one series keeps, however many tags a file has. */
const SERIES_POINTS_FLOOR = 1_000;

export type TrainerFileJob = {
  kind: "trainer-file";
  format: "tfevents" | "mlflow";
  file: string;
  /** The file as notes name it (relative to the log directory). */
  rel: string;
  /** The MLflow metric's key (its path under metrics/). */
  key?: string;
};

/** A series in typed arrays; non-finite values coded 1 NaN, 2 +Infinity, 3 −Infinity. */
export interface PackedSeries {
  tag: string;
  sources: string[];
  steps: Float64Array;
  wall: Float64Array;
  values: Float64Array;
  nonFinite: Uint8Array;
}

export interface ParsedFile {
  series: PackedSeries[];
  notes: string[];
}

const NON_FINITE = [undefined, "NaN", "Infinity", "-Infinity"] as const;

function pack(s: ScalarSeries): PackedSeries {
  const n = s.points.length;
  const out: PackedSeries = {
    tag: s.tag,
    sources: s.sources,
    steps: new Float64Array(n),
    wall: new Float64Array(n),
    values: new Float64Array(n),
    nonFinite: new Uint8Array(n),
  };
  s.points.forEach((p, i) => {
    out.steps[i] = p.step;
    out.wall[i] = p.wall_time;
    out.values[i] = p.value ?? NaN;
    out.nonFinite[i] = p.non_finite ? NON_FINITE.indexOf(p.non_finite) : 0;
  });
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
  return { tag: p.tag, sources: p.sources, points };
}

/**
 * The series cut to `max` points: consecutive steps in equal buckets, each the mean of its finite
 * values at its last step (a bucket of gaps stays a gap). Shorter series are kept as they are.
 */
export function thin(s: ScalarSeries, max: number): ScalarSeries {
  const n = s.points.length;
  if (n <= max) return s;
  const points: ScalarPoint[] = [];
  for (let b = 0; b < max; b++) {
    const from = Math.floor((b * n) / max);
    const to = Math.floor(((b + 1) * n) / max);
    let sum = 0;
    let k = 0;
    for (let i = from; i < to; i++) {
      const v = s.points[i]!.value;
      if (v === null) continue;
      sum += v;
      k++;
    }
    const last = s.points[to - 1]!;
    points.push(k ? { step: last.step, wall_time: last.wall_time, value: sum / k } : last);
  }
  return { ...s, points };
}

/** Every series of the file, each cut so the file sends at most FILE_POINTS points; notes say so. */
function bounded(series: ScalarSeries[], rel: string, notes: string[]): ScalarSeries[] {
  const total = series.reduce((n, s) => n + s.points.length, 0);
  if (total <= FILE_POINTS) return series;
  const per = Math.max(SERIES_POINTS_FLOOR, Math.floor(FILE_POINTS / series.length));
  return series.map((s) => {
    if (s.points.length <= per) return s;
    notes.push(
      `${rel}: ${s.tag}: ${s.points.length.toLocaleString("en-US")} steps, shown as ` +
        `${per.toLocaleString("en-US")} means of consecutive steps`,
    );
    return thin(s, per);
  });
}

/** Parses the file's bytes: its series (bounded) and what was skipped. */
export function parseTrainerFile(job: TrainerFileJob, bytes: Buffer): ParsedFile {
  const c = new SeriesCollector();
  const read =
    job.format === "tfevents"
      ? readEventFile(bytes, job.rel, c)
      : readMlflowMetric(bytes.toString("utf8"), job.key ?? "", job.rel, c);
  const notes = [...read.notes];
  return { series: bounded(c.series(), job.rel, notes).map(pack), notes };
}

/** The job on this thread (a worker's, or the server's when there is no worker). */
export async function runTrainerFileJob(
  job: TrainerFileJob,
  ctx?: JobContext,
): Promise<ParsedFile> {
  const parsed = parseTrainerFile(job, await readRegularFile(job.file, TRAINER_LOG_MAX_BYTES));
  ctx?.transfer(
    parsed.series.flatMap((s) =>
      [s.steps, s.wall, s.values, s.nonFinite].map((a) => a.buffer as ArrayBuffer),
    ),
  );
  return parsed;
}
