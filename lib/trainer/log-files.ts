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
import { PackedCollector, thinPacked, type PackedSeries } from "./packed-series";

export { thin, unpack, type PackedSeries } from "./packed-series";

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

export interface ParsedFile {
  series: PackedSeries[];
  notes: string[];
}

/** Every series of the file, each cut so the file sends at most FILE_POINTS points; notes say so. */
function bounded(series: PackedSeries[], rel: string, notes: string[]): PackedSeries[] {
  const total = series.reduce((n, s) => n + s.steps.length, 0);
  if (total <= FILE_POINTS) return series;
  const per = Math.max(SERIES_POINTS_FLOOR, Math.floor(FILE_POINTS / series.length));
  return series.map((s) => {
    if (s.steps.length <= per) return s;
    notes.push(
      `${rel}: ${s.tag}: ${s.steps.length.toLocaleString("en-US")} steps, shown as ` +
        `${per.toLocaleString("en-US")} means of consecutive steps`,
    );
    return thinPacked(s, per);
  });
}

/**
 * Parses the file's bytes: its series (bounded) and what was skipped. The points go straight into
 * typed arrays (a 250 MiB file's five million records are never five million objects).
 */
export function parseTrainerFile(job: TrainerFileJob, bytes: Buffer): ParsedFile {
  const c = new PackedCollector();
  const read =
    job.format === "tfevents"
      ? readEventFile(bytes, job.rel, c)
      : readMlflowMetric(bytes.toString("utf8"), job.key ?? "", job.rel, c);
  const notes = [...read.notes];
  return { series: bounded(c.series(), job.rel, notes), notes };
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
