// Where a run's trainer logs are: run.json's `paths.trainer_logs` (a log directory, an MLflow
// tracking database file, or its `sqlite:///…` URI as MLflow names it), else `logs/` or the run
// directory itself (a NeMo-RL experiment, `exp_NNN/`) when it holds a logger's files. Like every
// run path it must resolve inside the runs root or an --allow-path directory. Not responsible for
// reading the files (./read-logs).
import "server-only";
import path from "node:path";
import type { RunLayout } from "@/lib/runs";
import {
  confinementOf,
  existsAt,
  isDirectory,
  isRegularFile,
  OutsideStoreError,
  readdirWithin,
  resolveConfined,
} from "@/lib/store";

export interface TrainerLogPlace {
  /** The log directory (the database's directory when run.json names a database). */
  dir: string | null;
  /** An MLflow tracking database run.json names; null when the directory is searched for one. */
  database: string | null;
  /** run.json's `mlflow_run`: which run of a database holding several is this one. */
  mlflowRun: string | null;
  error: string | null;
}

/** The directories each logger NeMo-RL drives writes under its `log_dir`. */
export const LOGGER_DIRS = ["tensorboard", "wandb", "mlruns", "mlflow", "swanlab"] as const;
/** An SQLite file a log directory may hold: MLflow's tracking database when its tables say so. */
export const DATABASE_FILE = /\.(db|sqlite|sqlite3)$/;

/**
 * Whether `dir` holds any logger's files: a logger's directory or `mlflow.db`, or (when `scan`) any
 * database file. A run directory is not scanned: a bare token store's may hold 100,000 names.
 */
async function holdsTrainerLogs(dir: string, scan: boolean): Promise<boolean> {
  const holds = await Promise.all([
    ...LOGGER_DIRS.map((d) => isDirectory(path.join(dir, d))),
    existsAt(path.join(dir, "mlflow.db")),
  ]);
  if (holds.some(Boolean)) return true;
  if (!scan) return false;
  const names = await readdirWithin(dir).catch(() => []);
  return names.some((d) => d.isFile() && DATABASE_FILE.test(d.name));
}

/** `sqlite:///rel/path` (relative) or `sqlite:////abs/path` (absolute) as a path; else null. */
export function sqlitePath(uri: string): string | null {
  const m = /^sqlite:\/\/\/(.+)$/.exec(uri);
  return m ? m[1]! : null;
}

/** Where the run's trainer logs are (see the module comment); an error names a refused path. */
export async function trainerLogsDir(run: RunLayout): Promise<TrainerLogPlace> {
  const mlflowRun = run.manifest.mlflow_run ?? null;
  const named = run.manifest.paths?.trainer_logs || undefined;
  const none = { dir: null, database: null, mlflowRun, error: null };
  let rel: string | null = named === undefined ? null : (sqlitePath(named) ?? named);
  if (rel === null)
    for (const candidate of ["logs", "."])
      if (await holdsTrainerLogs(path.join(run.dir, candidate), candidate === "logs")) {
        rel = candidate;
        break;
      }
  if (rel === null) return none;
  const where = await confinedRunPath(run, rel);
  if (where.error !== null) {
    const label = named === undefined ? "" : "run.json paths.trainer_logs: ";
    return { ...none, error: `${label}${where.error}` };
  }
  if (named !== undefined && (await isRegularFile(where.dir)))
    return { dir: path.dirname(where.dir), database: where.dir, mlflowRun, error: null };
  return { dir: where.dir, database: null, mlflowRun, error: null };
}

/**
 * `rel` (relative to the run directory) resolved inside the runs root or an --allow-path
 * directory, through every symlink on the way; else null and why, naming the path, never its bytes.
 */
export async function confinedRunPath(
  run: RunLayout,
  rel: string,
): Promise<{ dir: string; error: null } | { dir: null; error: string }> {
  try {
    const c = await confinementOf(run.root, "the runs root");
    return { dir: await resolveConfined(run.dir, rel, c), error: null };
  } catch (err) {
    if (!(err instanceof OutsideStoreError)) throw err;
    return { dir: null, error: err.message };
  }
}
