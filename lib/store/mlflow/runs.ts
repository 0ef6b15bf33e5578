// The runs of an MLflow tracking database, with their experiment, params and tags, and which one a
// Rollout Lens run is (run.json's `mlflow_run`). Deleted runs are left out; params and tags are
// bounded per run. Reads only; not responsible for opening the database (lib/store's
// withSqliteSnapshot) nor for recognising it (./schema).
import type Database from "better-sqlite3";

/** At most this many params (and, apart, tags) are kept per run, the first by key. */
export const MAX_RUN_PARAMS = 500;
/** MLflow's tag holding the name the UI shows; runs.name is its copy. */
const RUN_NAME_TAG = "mlflow.runName";

export interface MlflowRunInfo {
  run_uuid: string;
  /** The `mlflow.runName` tag, else runs.name (null when neither is set). */
  name: string | null;
  /** As MLflow's API gives it: a string. */
  experiment_id: string;
  experiment_name: string | null;
  status: string | null;
  /** Milliseconds since the epoch, as MLflow stores them. */
  start_time: number | null;
  end_time: number | null;
  lifecycle_stage: string | null;
  params: Record<string, string>;
  tags: Record<string, string>;
}

export interface MlflowRuns {
  runs: MlflowRunInfo[];
  notes: string[];
}

interface RunRow {
  run_uuid: string;
  name: string | null;
  experiment_id: number | string | null;
  experiment_name: string | null;
  status: string | null;
  start_time: number | null;
  end_time: number | null;
  lifecycle_stage: string | null;
}

/** `key → value` rows of `table` for each run, `MAX_RUN_PARAMS` at most per run (counted apart). */
function keyValues(db: Database.Database, table: "params" | "tags") {
  const byRun = new Map<string, { kept: Record<string, string>; total: number }>();
  // One pass in key order over the table, iterated: a run's rows are never all held at once.
  const rows = db
    .prepare(`SELECT run_uuid, key, value FROM ${table} ORDER BY run_uuid, key`)
    .raw()
    .iterate() as IterableIterator<[string, string, string | null]>;
  for (const [run, key, value] of rows) {
    let r = byRun.get(run);
    if (!r) byRun.set(run, (r = { kept: {}, total: 0 }));
    if (++r.total <= MAX_RUN_PARAMS) r.kept[key] = value ?? "";
  }
  return byRun;
}

/** The database's runs that are not deleted, by start time then id, with notes on what was left out. */
export function listMlflowRuns(db: Database.Database): MlflowRuns {
  const rows = db
    .prepare(
      `SELECT r.run_uuid, r.name, r.experiment_id, e.name AS experiment_name, r.status,
              r.start_time, r.end_time, r.lifecycle_stage
       FROM runs r LEFT JOIN experiments e ON e.experiment_id = r.experiment_id
       ORDER BY r.start_time, r.run_uuid`,
    )
    .all() as RunRow[];
  const params = keyValues(db, "params");
  const tags = keyValues(db, "tags");
  const notes: string[] = [];
  const runs: MlflowRunInfo[] = [];
  let deleted = 0;
  for (const row of rows) {
    if (row.lifecycle_stage === "deleted") {
      deleted++;
      continue;
    }
    const p = params.get(row.run_uuid);
    const t = tags.get(row.run_uuid);
    const name = t?.kept[RUN_NAME_TAG] || row.name || null;
    for (const [what, kv] of [
      ["params", p],
      ["tags", t],
    ] as const)
      if (kv && kv.total > MAX_RUN_PARAMS)
        notes.push(
          `run ${name ?? row.run_uuid}: ${kv.total} ${what}; the first ${MAX_RUN_PARAMS} by key kept`,
        );
    runs.push({
      ...row,
      name,
      experiment_id: String(row.experiment_id ?? ""),
      params: p?.kept ?? {},
      tags: t?.kept ?? {},
    });
  }
  if (deleted > 0)
    notes.push(
      `${deleted} deleted run${deleted === 1 ? "" : "s"} (lifecycle_stage 'deleted') left out`,
    );
  return { runs, notes };
}

export interface PickedRun {
  run: MlflowRunInfo | null;
  /** Why none (or what was assumed), for the run's notes; null when `wanted` named it plainly. */
  note: string | null;
}

const HOW_TO_PICK = `run.json's "mlflow_run" (a run's name or id) picks one`;

function listed(runs: readonly MlflowRunInfo[]): string {
  const names = runs.slice(0, 5).map((r) => JSON.stringify(r.name ?? r.run_uuid));
  return names.join(", ") + (runs.length > 5 ? `, and ${runs.length - 5} more` : "");
}

/**
 * The run `wanted` names (its id, or its name when only one run has it); without `wanted`, the
 * only run. A database of several runs and no `wanted`, a name several runs share or one no run
 * has picks none, with a note saying what there is.
 */
export function pickMlflowRun(runs: readonly MlflowRunInfo[], wanted?: string | null): PickedRun {
  if (runs.length === 0) return { run: null, note: "no runs (other than deleted ones)" };
  if (!wanted) {
    if (runs.length === 1) return { run: runs[0]!, note: null };
    return {
      run: null,
      note: `${runs.length} runs (${listed(runs)}); ${HOW_TO_PICK}`,
    };
  }
  const byId = runs.find((r) => r.run_uuid.toLowerCase() === wanted.toLowerCase());
  if (byId) return { run: byId, note: null };
  const named = runs.filter((r) => r.name === wanted);
  if (named.length === 1) return { run: named[0]!, note: null };
  if (named.length > 1)
    return {
      run: null,
      note: `${named.length} runs are named ${JSON.stringify(wanted)} (ids ${named
        .map((r) => r.run_uuid)
        .join(", ")}); give "mlflow_run" the id of one`,
    };
  return {
    run: null,
    note: `no run named or with id ${JSON.stringify(wanted)} among ${runs.length} (${listed(runs)})`,
  };
}
