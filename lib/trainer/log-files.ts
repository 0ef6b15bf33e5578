// The trainer's files parsed on a store worker thread (the pools of lib/rollout/pool), so a huge
// event file, MLflow metric file, W&B run file or MLflow tracking database never holds the
// server's event loop: the worker reads the file
// through lib/store's watched readers (a stalled mount fails the job after the read deadline),
// parses it, cuts every series to a bounded number of points and sends them back packed in typed
// arrays (transferred, not copied). Without a worker the same runs in this thread. Not
// responsible for which files a run has (./read-logs) or for caching (./read-logs, by version).
import "server-only";
import path from "node:path";
import { readRegularFile, type JobContext } from "@/lib/store";
import { readEventFile } from "./event-scalars";
import type { LoggedFacts } from "@/lib/schema";
import { readMlflowMetric } from "./mlflow";
import { parseMlflowDatabase } from "./mlflow-db";
import { factsOf, PackedCollector, thinPacked, type PackedSeries } from "./packed-series";
import {
  mergeFacts,
  parseConfigYaml,
  parseMetadataJson,
  parseSummaryJson,
  parseWandbFile,
  type WandbFacts,
  type WandbSideFacts,
} from "./wandb";
import { loggedFacts } from "./logged-facts";

export { lazySeries, thin, unpack, type PackedSeries } from "./packed-series";

/** Larger than any scalar log a trainer writes: refused rather than held in memory. */
export const TRAINER_LOG_MAX_BYTES = 256 << 20;
/** The points one file may send back in all: a page charts ≤ 1,000 a series, compare pairs steps. */
export const FILE_POINTS = 200_000;
/** The least any one series keeps, however many tags a file has. */
const SERIES_POINTS_FLOOR = 1_000;

export type TrainerFileJob = {
  kind: "trainer-file";
  format: "tfevents" | "mlflow" | "wandb" | "mlflow-db";
  file: string;
  /** The file as notes name it (relative to the log directory). */
  rel: string;
  /** The MLflow metric's key (its path under metrics/). */
  key?: string;
  /** Which run of a tracking database (its name or uuid); the only one when unnamed. */
  mlflowRun?: string | null;
  /** A W&B run file's text files (`files/wandb-summary.json`, …): name → path. */
  side?: Partial<Record<string, string>>;
};

export interface ParsedFile {
  series: PackedSeries[];
  notes: string[];
  /** Run facts the file keeps (W&B config and summary; an MLflow run's params). */
  facts: LoggedFacts[];
  /** A tracking database's runs (name and uuid), for a run root listing each. */
  mlflowRuns?: { uuid: string; name: string | null }[];
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
export function parseTrainerFile(
  job: TrainerFileJob,
  bytes: Buffer,
  side: WandbSideFacts = {},
): ParsedFile {
  const c = new PackedCollector();
  const facts: LoggedFacts[] = [];
  let notes: string[];
  if (job.format === "tfevents") notes = [...readEventFile(bytes, job.rel, c).notes];
  else if (job.format === "mlflow")
    notes = [...readMlflowMetric(bytes.toString("utf8"), job.key ?? "", job.rel, c).notes];
  else if (job.format === "wandb") {
    const read = parseWandbFile(bytes, job.rel, c);
    notes = [...read.notes];
    const f = mergeFacts(read.facts, side);
    for (const one of [
      loggedFacts(job.rel, "run", runFields(f)),
      loggedFacts(job.rel, "config", f.config),
      loggedFacts(job.rel, "summary", f.summary),
    ])
      if (one) facts.push(one);
  } else throw new Error(`${job.rel}: a ${job.format} file is read from its path, not its bytes`);
  return { series: bounded(c.series(), job.rel, notes), notes, facts };
}

/** The text files W&B keeps beside a run file (small: read whole, a bad one is a note). */
const SIDE_FILE_MAX_BYTES = 16 << 20;

async function readSideFiles(job: TrainerFileJob, notes: string[]): Promise<WandbSideFacts> {
  const side: WandbSideFacts = {};
  const rel = (name: string) => path.join(path.dirname(job.rel), "files", name);
  const text = async (name: string) => {
    const file = job.side?.[name];
    if (!file) return null;
    try {
      return (await readRegularFile(file, SIDE_FILE_MAX_BYTES)).toString("utf8");
    } catch (err) {
      notes.push(`${rel(name)}: ${(err as Error).message}`);
      return null;
    }
  };
  const parsed = <T>(
    t: string | null,
    name: string,
    parse: (t: string, rel: string) => { value: T; notes: string[] },
  ) => {
    if (t === null) return undefined;
    const read = parse(t, rel(name));
    notes.push(...read.notes);
    return read.value;
  };
  side.summary = parsed(await text("wandb-summary.json"), "wandb-summary.json", parseSummaryJson);
  side.config = parsed(await text("config.yaml"), "config.yaml", parseConfigYaml);
  side.metadata = parsed(
    await text("wandb-metadata.json"),
    "wandb-metadata.json",
    parseMetadataJson,
  );
  return side;
}

/** A W&B run's own fields, those it has. */
function runFields(f: WandbFacts): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ["run_id", "project", "entity", "display_name", "exit_code"] as const)
    if (f[k] !== undefined) out[k] = f[k];
  if (f.start_time !== undefined) out.start_time = new Date(f.start_time * 1000).toISOString();
  for (const [k, v] of Object.entries(f.metadata ?? {})) out[k] = v;
  return out;
}

/** A tracking database: the run it is (or the only one), its metrics, params and run fields. */
async function parseDatabaseJob(job: TrainerFileJob): Promise<ParsedFile> {
  const c = new PackedCollector();
  const read = await parseMlflowDatabase(job.file, job.rel, c, job.mlflowRun);
  const notes = [...read.notes];
  const facts: LoggedFacts[] = [];
  const run = read.picked;
  if (run) {
    const source = `${job.rel} run ${run.name ?? run.run_uuid}`;
    const fields = {
      run_uuid: run.run_uuid,
      name: run.name,
      experiment: run.experiment_name ?? run.experiment_id,
      status: run.status,
      start_time: run.start_time === null ? null : new Date(run.start_time).toISOString(),
      end_time: run.end_time === null ? null : new Date(run.end_time).toISOString(),
    };
    for (const f of [loggedFacts(source, "run", fields), loggedFacts(source, "params", run.params)])
      if (f) facts.push(f);
  }
  const mlflowRuns = read.runs.map((r) => ({ uuid: r.run_uuid, name: r.name }));
  return { series: bounded(c.series(), job.rel, notes), notes, facts, mlflowRuns };
}

/** The job on this thread (a worker's, or the server's when there is no worker). */
export async function runTrainerFileJob(
  job: TrainerFileJob,
  ctx?: JobContext,
): Promise<ParsedFile> {
  let parsed: ParsedFile;
  if (job.format === "mlflow-db") parsed = await parseDatabaseJob(job);
  else {
    const bytes = await readRegularFile(job.file, TRAINER_LOG_MAX_BYTES);
    const sideNotes: string[] = [];
    const side = job.format === "wandb" ? await readSideFiles(job, sideNotes) : {};
    parsed = parseTrainerFile(job, bytes, side);
    parsed.notes.push(...sideNotes);
  }
  for (const s of parsed.series) s.facts = factsOf(s);
  ctx?.transfer(
    parsed.series.flatMap((s) =>
      [s.steps, s.wall, s.values, s.nonFinite].map((a) => a.buffer as ArrayBuffer),
    ),
  );
  return parsed;
}
