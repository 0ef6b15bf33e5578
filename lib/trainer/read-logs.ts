// Reads a trainer log directory (NeMo-RL's `log_dir`): TensorBoard event files under
// `tensorboard/` (`events.out.tfevents.*`, a few levels deep) and MLflow's file store under
// `mlruns/<experiment>/<run>/metrics/`. Files are opened only through lib/store's deadline-guarded
// readers, each parsed once per file version. The directory itself is confined by the caller;
// `tensorboard/` and `mlruns/` may be symlinks only within it (one leading out is refused by name),
// and symlinks below them are not followed. One unreadable file is a note, never the run's error.
import "server-only";
import path from "node:path";
import type { Dirent } from "node:fs";
import { storePool } from "@/lib/rollout";
import { processCache } from "@/lib/cache";
import {
  cachedOrError,
  confine,
  fileState,
  isDirectory,
  memoryBudget,
  nextTurn,
  OutsideStoreError,
  readdirWithin,
} from "@/lib/store";
import {
  FILE_POINTS,
  runTrainerFileJob,
  TRAINER_LOG_MAX_BYTES,
  unpack,
  type ParsedFile,
  type TrainerFileJob,
} from "./log-files";
import { SeriesCollector, type ScalarSeries } from "./scalar-series";
import type { LoggedFacts, LoggerSeen } from "@/lib/schema";

const MAX_DEPTH = 6;
const EVENT_FILE = /^events\.out\.tfevents\./;

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

/** Which run of a tracking database this run is, when run.json names one (./log-place). */
export interface LogPlace {
  database?: string | null;
  mlflowRun?: string | null;
}

interface Found {
  rel: string;
  file: string;
}

/** Regular files under `dir` (relative paths), `depth` levels at most; symlinks are noted, not followed. */
async function walk(dir: string, base: string, depth: number, notes: string[]): Promise<Found[]> {
  let entries: Dirent[];
  try {
    entries = await readdirWithin(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT")
      notes.push(`${path.relative(base, dir) || "."}: ${(err as Error).message}`);
    return [];
  }
  const out: Found[] = [];
  for (const d of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const file = path.join(dir, d.name);
    const rel = path.relative(base, file);
    if (d.isFile()) out.push({ rel, file });
    else if (d.isSymbolicLink()) notes.push(`${rel}: a symlink; not followed`);
    else if (d.isDirectory()) {
      if (depth > 0 && !d.name.startsWith("."))
        out.push(...(await walk(file, base, depth - 1, notes)));
    } else notes.push(`${rel}: ${d.isFIFO() ? "a FIFO" : "not a regular file"}; not read`);
  }
  return out;
}

/** The files under `dir/name`, when `name` (a symlink or not) stays inside `dir`; else a note. */
async function walkRoot(dir: string, name: string, notes: string[]): Promise<Found[]> {
  const root = path.join(dir, name);
  try {
    await confine(dir, root, "the trainer log directory");
  } catch (err) {
    if (!(err instanceof OutsideStoreError)) throw err;
    notes.push(err.message);
    return [];
  }
  return walk(root, dir, MAX_DEPTH, notes);
}

type Parsed = { series: ScalarSeries[]; notes: string[] };
/** A parsed point's heap, roughly (an object of three numbers). */
const POINT_BYTES = 80;

/**
 * The file's series, parsed once per file version (the cache holds them unpacked and bounded):
 * on a store worker when there is one, so the parse never holds this thread.
 */
async function parsed(job: TrainerFileJob): Promise<Parsed> {
  const r = await cachedOrError(
    `trainer-${job.format}`,
    job.file,
    async (st) => {
      if (st.size > TRAINER_LOG_MAX_BYTES)
        throw new Error(
          `${(st.size / 2 ** 20).toFixed(0)} MiB; larger than a scalar log, not read`,
        );
      const pool = storePool("interactive");
      const file = await memoryBudget().run(st.size, () =>
        pool ? pool.run<ParsedFile>(job) : runTrainerFileJob(job),
      );
      // Into objects a series at a time, the loop given a turn between them (200,000 points each).
      const series: ScalarSeries[] = [];
      for (const packed of file.series) {
        series.push(unpack(packed));
        await nextTurn();
      }
      return { series, notes: file.notes };
      // What is kept is bounded (FILE_POINTS points), however large the file: weighed as that.
    },
    (st) => Math.min(st.size, FILE_POINTS * POINT_BYTES),
  );
  return r.value ?? { series: [], notes: r.error ? [`${job.rel}: ${r.error}`] : [] };
}

function eventFile(f: Found): Promise<Parsed> {
  return parsed({ kind: "trainer-file", format: "tfevents", file: f.file, rel: f.rel });
}

/** `<exp>/<run>/metrics/<key…>` (relative to mlruns/): the key, slashes kept; null for other files. */
function mlflowKey(rel: string): string | null {
  const parts = rel.split(path.sep);
  return parts.length >= 4 && parts[2] === "metrics" ? parts.slice(3).join("/") : null;
}

function metricFile(f: Found, key: string): Promise<Parsed> {
  return parsed({ kind: "trainer-file", format: "mlflow", file: f.file, rel: f.rel, key });
}

// The merged logs of a directory, held while none of its files changes: a warm page reads the
// directory's listing and its files' stats, never a file again or a merge of its points.
// Weighed as the per-file cache weighs them (the merged points are the same objects).
const MERGED_BYTES = 256 << 20;
const merged = () => processCache<Promise<TrainerLogs>>("trainer-logs", "bytes", MERGED_BYTES);

/** Every scalar series in the trainer log directory `dir`, merged per tag across files. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the database reader reads `place`
export async function readTrainerLogs(dir: string, place: LogPlace = {}): Promise<TrainerLogs> {
  const notes: string[] = [];
  const tb = (await walkRoot(dir, "tensorboard", notes)).filter((f) =>
    EVENT_FILE.test(path.basename(f.file)),
  );
  const ml = (await walkRoot(dir, "mlruns", notes)).flatMap((f) => {
    const key = mlflowKey(path.relative(path.join(dir, "mlruns"), f.file));
    return key === null ? [] : [{ f, key }];
  });
  const states = await Promise.all([...tb, ...ml.map((m) => m.f)].map((f) => fileState(f.file)));
  const id = [
    dir,
    ...notes,
    ...[...tb, ...ml.map((m) => m.f)].map((f, i) => `${f.rel}@${states[i]?.version}`),
  ].join("\n");
  const cache = merged();
  const hit = cache.get(id);
  if (hit) return hit;
  const read = mergeLogs(dir, tb, ml, notes);
  const weight = states.reduce((n, s) => n + Math.min(s.size, FILE_POINTS * POINT_BYTES), 1);
  cache.set(id, read, weight);
  read.catch(() => cache.delete(id));
  return read;
}

async function mergeLogs(
  dir: string,
  tb: Found[],
  ml: { f: Found; key: string }[],
  notes: string[],
): Promise<TrainerLogs> {
  const reads = await Promise.all([
    ...tb.map(eventFile),
    ...ml.map(({ f, key }) => metricFile(f, key)),
  ]);
  for (const r of reads) notes.push(...r.notes);
  // A tag one file holds is that file's series as it is (one point per step, in order); a tag
  // several files hold is merged, each point naming its one file as the source.
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
  series.sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  const files = [...tb, ...ml.map((m) => m.f)].map((f) => f.rel);
  return { dir, series, files, notes, facts: [], loggers: await loggersOf(dir, tb, ml.length) };
}

const plural = (n: number, one: string) =>
  `${n.toLocaleString("en-US")} ${one}${n === 1 ? "" : "s"}`;

/** The loggers found in `dir`: what was read of each, and SwanLab's directory named as not read. */
async function loggersOf(dir: string, tb: Found[], metricFiles: number): Promise<LoggerSeen[]> {
  const seen: LoggerSeen[] = [];
  if (tb.length > 0)
    seen.push({
      path: "tensorboard",
      logger: "tensorboard",
      read: true,
      detail: plural(tb.length, "event file"),
    });
  if (metricFiles > 0)
    seen.push({
      path: "mlruns",
      logger: "mlflow",
      read: true,
      detail: plural(metricFiles, "metric file"),
    });
  if (await isDirectory(path.join(dir, "swanlab")))
    seen.push({
      path: "swanlab",
      logger: "swanlab",
      read: false,
      detail:
        "SwanLab's offline files are not read: their format is not documented well enough to read them faithfully",
    });
  return seen;
}
