// Which files of a trainer log directory (NeMo-RL's `log_dir`) each reader takes: TensorBoard event
// files under `tensorboard/` (a few levels deep: hparams writes one in a subdirectory), MLflow's
// file store under `mlruns/<experiment>/<run>/metrics/`, W&B's run files under `wandb/`
// (`wandb/offline-run-*/run-<id>.wandb` and the text files W&B keeps in its `files/`), and MLflow
// tracking databases (`*.db` at the top or in `mlflow/`, or the file run.json names). A logger's
// directory may be a symlink only within the log directory; symlinks below it are not followed,
// W&B's own `latest-run` and `debug*.log` links passed over in silence (they point at a run
// directory already read). Not responsible for parsing (./log-files) or caching (./read-logs).
import "server-only";
import path from "node:path";
import type { Dirent } from "node:fs";
import { confine, OutsideStoreError, readdirWithin } from "@/lib/store";
import { DATABASE_FILE } from "./log-place";

const MAX_DEPTH = 6;
const EVENT_FILE = /^events\.out\.tfevents\./;
const WANDB_FILE = /^run-.+\.wandb$/;
/** Links W&B makes to its newest run's directory and logs. */
const WANDB_LINKS = new Set(["latest-run", "debug.log", "debug-internal.log"]);
/** The text files W&B keeps in a run directory's `files/`, used where the binary lacks them. */
export const WANDB_SIDE_FILES = [
  "wandb-summary.json",
  "config.yaml",
  "wandb-metadata.json",
] as const;

export interface Found {
  rel: string;
  file: string;
}

export interface WandbRunFiles {
  run: Found;
  /** W&B's text files beside it, by name, those present. */
  side: Partial<Record<(typeof WANDB_SIDE_FILES)[number], string>>;
}

export interface FoundLogs {
  events: Found[];
  metrics: { f: Found; key: string }[];
  wandb: WandbRunFiles[];
  /** Tracking databases; `named` when run.json names the file (then every problem is told). */
  databases: { f: Found; named: boolean }[];
  swanlab: boolean;
  notes: string[];
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Regular files under `dir`, `depth` levels at most; symlinks are noted (`quiet` ones not). */
async function walk(
  dir: string,
  base: string,
  depth: number,
  notes: string[],
  quiet: ReadonlySet<string> = new Set(),
): Promise<Found[]> {
  let entries: Dirent[];
  try {
    entries = await readdirWithin(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT")
      notes.push(`${path.relative(base, dir) || "."}: ${(err as Error).message}`);
    return [];
  }
  const out: Found[] = [];
  for (const d of entries.sort(byName)) {
    const file = path.join(dir, d.name);
    const rel = path.relative(base, file);
    if (d.isFile()) out.push({ rel, file });
    else if (d.isSymbolicLink()) {
      if (!quiet.has(d.name)) notes.push(`${rel}: a symlink; not followed`);
    } else if (d.isDirectory()) {
      if (depth > 0 && !d.name.startsWith("."))
        out.push(...(await walk(file, base, depth - 1, notes, quiet)));
    } else notes.push(`${rel}: ${d.isFIFO() ? "a FIFO" : "not a regular file"}; not read`);
  }
  return out;
}

/** The files under `dir/name`, when `name` (a symlink or not) stays inside `dir`; else a note. */
async function walkRoot(
  dir: string,
  name: string,
  notes: string[],
  depth = MAX_DEPTH,
  quiet?: ReadonlySet<string>,
): Promise<Found[]> {
  const root = path.join(dir, name);
  try {
    await confine(dir, root, "the trainer log directory");
  } catch (err) {
    if (!(err instanceof OutsideStoreError)) throw err;
    notes.push(err.message);
    return [];
  }
  return walk(root, dir, depth, notes, quiet);
}

/** `<exp>/<run>/metrics/<key…>` (relative to mlruns/): the key, slashes kept; null for other files. */
function mlflowKey(rel: string): string | null {
  const parts = rel.split(path.sep);
  return parts.length >= 4 && parts[2] === "metrics" ? parts.slice(3).join("/") : null;
}

/** Each W&B run file with the text files of its directory's `files/`. */
function wandbRuns(found: Found[]): WandbRunFiles[] {
  const byRel = new Map(found.map((f) => [f.rel, f.file]));
  return found
    .filter((f) => WANDB_FILE.test(path.basename(f.file)))
    .map((run) => {
      const side: WandbRunFiles["side"] = {};
      for (const name of WANDB_SIDE_FILES) {
        const file = byRel.get(path.join(path.dirname(run.rel), "files", name));
        if (file) side[name] = file;
      }
      return { run, side };
    });
}

/** The top-level files of `dir` (no walk: a log directory may hold thousands of step files). */
async function topFiles(dir: string, notes: string[]): Promise<Found[]> {
  return (await walk(dir, dir, 0, notes, new Set())).filter((f) => !f.rel.includes(path.sep));
}

/** What each reader takes from the log directory `dir`; `database` is a file run.json names. */
export async function findLogs(dir: string, database: string | null): Promise<FoundLogs> {
  const notes: string[] = [];
  const events = (await walkRoot(dir, "tensorboard", notes)).filter((f) =>
    EVENT_FILE.test(path.basename(f.file)),
  );
  const metrics = (await walkRoot(dir, "mlruns", notes)).flatMap((f) => {
    const key = mlflowKey(path.relative(path.join(dir, "mlruns"), f.file));
    return key === null ? [] : [{ f, key }];
  });
  const wandb = wandbRuns(await walkRoot(dir, "wandb", notes, MAX_DEPTH, WANDB_LINKS));
  const databases: FoundLogs["databases"] = database
    ? [
        {
          f: { rel: path.relative(dir, database) || path.basename(database), file: database },
          named: true,
        },
      ]
    : [...(await topFiles(dir, [])), ...(await walkRoot(dir, "mlflow", notes, 0))]
        .filter((f) => DATABASE_FILE.test(path.basename(f.file)))
        .map((f) => ({ f, named: path.basename(f.file) === "mlflow.db" }));
  const swanlab = (await readdirWithin(dir).catch(() => [])).some(
    (d) => d.name === "swanlab" && d.isDirectory(),
  );
  return { events, metrics, wandb, databases, swanlab, notes };
}
