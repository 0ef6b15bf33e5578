// Reads a trainer log directory (NeMo-RL's `log_dir`): every file ./log-discovery finds for the
// TensorBoard, MLflow (file store and tracking database) and W&B readers, each parsed once per file
// version on a store worker (./log-files), merged per tag. The directory itself is confined by the
// caller; one unreadable file is a note, never the run's error. Not responsible for where the log
// directory is (./log-place).
import "server-only";
import { storePool } from "@/lib/rollout";
import { processCache } from "@/lib/cache";
import { cachedOrError, fileState, memoryBudget, nextTurn } from "@/lib/store";
import type { LoggedFacts, LoggerSeen } from "@/lib/schema";
import { findLogs, type Found, type FoundLogs } from "./log-discovery";
import {
  FILE_POINTS,
  runTrainerFileJob,
  TRAINER_LOG_MAX_BYTES,
  lazySeries,
  type ParsedFile,
  type TrainerFileJob,
} from "./log-files";
import { SeriesCollector, type ScalarSeries } from "./scalar-series";

export interface TrainerLogs {
  dir: string;
  series: ScalarSeries[];
  /** Files read, relative to `dir`. */
  files: string[];
  /** What was skipped, torn or unreadable, naming the file (and byte offset or line). */
  notes: string[];
  /** Run facts the loggers keep (W&B config and summary, MLflow params and run). */
  facts: LoggedFacts[];
  /** Each logger's directory or file found, read or not (SwanLab's is named, not read). */
  loggers: LoggerSeen[];
}

/** A tracking database run.json names, and which of its runs this run is (./log-place). */
export interface LogPlace {
  database?: string | null;
  mlflowRun?: string | null;
}

type Parsed = Omit<ParsedFile, "series"> & { series: ScalarSeries[] };
/** A point's heap once a page has read it as an object (packed, 25 bytes), roughly. */
const POINT_BYTES = 80;
/** A tracking database is copied to a private snapshot, not held in memory: weighed at most this. */
const DATABASE_MEMORY = 64 << 20;
/** Larger than any tracking database a run keeps (the snapshot is a copy on disk). */
const DATABASE_MAX_BYTES = 2 * 1024 ** 3;

/**
 * The file's series, parsed once per file version (the cache holds them unpacked and bounded):
 * on a store worker when there is one, so the parse never holds this thread. `scope` adds what
 * else the value depends on (a database's WAL and the run picked from it).
 */
async function parsed(job: TrainerFileJob, scope = ""): Promise<Parsed> {
  const database = job.format === "mlflow-db";
  const r = await cachedOrError(
    `trainer-${job.format}${scope}`,
    job.file,
    async (st) => {
      const max = database ? DATABASE_MAX_BYTES : TRAINER_LOG_MAX_BYTES;
      if (st.size > max)
        throw new Error(
          `${(st.size / 2 ** 20).toFixed(0)} MiB; larger than a trainer log, not read`,
        );
      const pool = storePool("interactive");
      const weight = database ? Math.min(st.size, DATABASE_MEMORY) : st.size;
      const file = await memoryBudget().run(weight, () =>
        pool ? pool.run<ParsedFile>(job) : runTrainerFileJob(job),
      );
      // Kept packed: each series' points become objects only when a page reads them all.
      const series = file.series.map(lazySeries);
      return { ...file, series };
      // What is kept is bounded (FILE_POINTS points), however large the file: weighed as that.
    },
    (st) => Math.min(st.size, FILE_POINTS * POINT_BYTES),
  );
  return r.value ?? { series: [], facts: [], notes: r.error ? [`${job.rel}: ${r.error}`] : [] };
}

const job = (format: TrainerFileJob["format"], f: Found, more: Partial<TrainerFileJob> = {}) =>
  parsed({ kind: "trainer-file", format, file: f.file, rel: f.rel, ...more });

/** A database's read, depending on its WAL too (a live trainer's rows wait there). */
async function databaseRead(f: Found, mlflowRun: string | null): Promise<Parsed> {
  const wal = await fileState(`${f.file}-wal`);
  return parsed(
    { kind: "trainer-file", format: "mlflow-db", file: f.file, rel: f.rel, mlflowRun },
    `\n${wal.version}\n${mlflowRun ?? ""}`,
  );
}

// The merged logs of a directory, held while none of its files changes: a warm page reads the
// directory's listing and its files' stats, never a file again or a merge of its points.
// Weighed as the per-file cache weighs them (the merged points are the same objects).
const MERGED_BYTES = 256 << 20;
const merged = () => processCache<Promise<TrainerLogs>>("trainer-logs", "bytes", MERGED_BYTES);

/** Every file the readers take, for the directory's version. */
function filesOf(found: FoundLogs): Found[] {
  return [
    ...found.events,
    ...found.metrics.map((m) => m.f),
    ...found.wandb.flatMap((w) => [
      w.run,
      ...Object.values(w.side).map((file) => ({ rel: file, file })),
    ]),
    ...found.databases.flatMap((d) => [d.f, { rel: `${d.f.rel}-wal`, file: `${d.f.file}-wal` }]),
  ];
}

/** Every scalar series in the trainer log directory `dir`, merged per tag across files. */
export async function readTrainerLogs(dir: string, place: LogPlace = {}): Promise<TrainerLogs> {
  const found = await findLogs(dir, place.database ?? null);
  const files = filesOf(found);
  const states = await Promise.all(files.map((f) => fileState(f.file)));
  const id = [
    dir,
    place.mlflowRun ?? "",
    ...found.notes,
    ...files.map((f, i) => `${f.rel}@${states[i]?.version}`),
  ].join("\n");
  const cache = merged();
  const hit = cache.get(id);
  if (hit) return hit;
  const read = mergeLogs(dir, found, place.mlflowRun ?? null);
  const weight = states.reduce((n, s) => n + Math.min(s.size, FILE_POINTS * POINT_BYTES), 1);
  cache.set(id, read, weight);
  read.catch(() => cache.delete(id));
  return read;
}

async function mergeLogs(
  dir: string,
  found: FoundLogs,
  mlflowRun: string | null,
): Promise<TrainerLogs> {
  const [events, metrics, wandb, databases] = await Promise.all([
    Promise.all(found.events.map((f) => job("tfevents", f))),
    Promise.all(found.metrics.map(({ f, key }) => job("mlflow", f, { key }))),
    Promise.all(found.wandb.map((w) => job("wandb", w.run, { side: w.side }))),
    Promise.all(found.databases.map((d) => databaseRead(d.f, mlflowRun))),
  ]);
  // A database found by its extension that is not MLflow's is someone else's file: passed over.
  const isMlflow = databases.map(
    (r, i) => found.databases[i]!.named || !r.notes.some((n) => n.includes("but not MLflow's")),
  );
  const reads = [...events, ...metrics, ...wandb, ...databases.filter((_, i) => isMlflow[i])];
  const notes = [...found.notes];
  for (const r of reads) notes.push(...r.notes);
  const series = await mergeSeries(reads);
  const used = [
    ...found.events,
    ...found.metrics.map((m) => m.f),
    ...found.wandb.map((w) => w.run),
  ];
  const dbs = found.databases.filter((_, i) => isMlflow[i]);
  return {
    dir,
    series,
    files: [...used, ...dbs.map((d) => d.f)].map((f) => f.rel),
    notes,
    facts: reads.flatMap((r) => r.facts),
    loggers: loggersOf(
      found,
      dbs.map((d) => d.f),
      databases.filter((_, i) => isMlflow[i]),
    ),
  };
}

/**
 * A tag one file holds is that file's series as it is (one point per step, in order); a tag
 * several files hold is merged, each point naming its one file as the source.
 */
async function mergeSeries(reads: readonly Parsed[]): Promise<ScalarSeries[]> {
  const holders = new Map<string, ScalarSeries[]>();
  for (const r of reads)
    for (const s of r.series) {
      const held = holders.get(s.tag);
      if (held) held.push(s);
      else holders.set(s.tag, [s]);
    }
  const series: ScalarSeries[] = [];
  for (const [tag, held] of holders) {
    if (held.length === 1) {
      series.push(held[0]!);
      continue;
    }
    const all = new SeriesCollector();
    for (const s of held) for (const p of s.points) all.add(tag, s.sources[0] ?? "", p);
    series.push(...all.series());
    await nextTurn();
  }
  return series.sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
}

const plural = (n: number, one: string) =>
  `${n.toLocaleString("en-US")} ${one}${n === 1 ? "" : "s"}`;

/** The loggers found: what was read of each, and SwanLab's directory named as not read. */
function loggersOf(found: FoundLogs, dbs: Found[], dbReads: Parsed[]): LoggerSeen[] {
  const seen: LoggerSeen[] = [];
  const add = (p: string, logger: LoggerSeen["logger"], detail: string, read = true) =>
    seen.push({ path: p, logger, read, detail });
  if (found.events.length > 0)
    add("tensorboard", "tensorboard", plural(found.events.length, "event file"));
  if (found.metrics.length > 0)
    add("mlruns", "mlflow", plural(found.metrics.length, "metric file"));
  if (found.wandb.length > 0) add("wandb", "wandb", plural(found.wandb.length, "run file"));
  dbs.forEach((f, i) => {
    const runs = dbReads[i]?.mlflowRuns?.length ?? 0;
    add(f.rel, "mlflow", `a tracking database of ${plural(runs, "run")}`);
  });
  if (found.swanlab)
    add(
      "swanlab",
      "swanlab",
      "SwanLab's offline files are not read: their format is not documented well enough to read them faithfully",
      false,
    );
  return seen;
}
