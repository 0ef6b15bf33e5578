// Writes MLflow tracking databases for tests and fixtures: MLflow 3.5's SQLite schema exactly
// (lib/store/mlflow's DDL, the alembic_version row) with experiments, runs, params, tags and
// metrics written as MLflow's SQL store writes them (the `mlflow.runName` tag beside runs.name,
// NaN as value 0 with is_nan 1, ±Infinity as ±DBL_MAX, latest_metrics kept). Also leaves one in
// WAL mode with rows not yet checkpointed, its writer still open, as a live trainer does.
import Database from "better-sqlite3";
import path from "node:path";
import { tempStore } from "./temp-store";
import { MLFLOW_ALEMBIC_HEAD, OTHER_DDL, TRACKING_DDL } from "@/lib/store/mlflow";

export interface MlflowDbMetric {
  key: string;
  value: number;
  step: number;
  /** Milliseconds since the epoch. */
  timestamp: number;
  /** Written as MLflow does for NaN (value 0); a NaN `value` sets it too. */
  is_nan?: boolean;
}

export interface MlflowDbRun {
  uuid: string;
  /** Written to runs.name and the `mlflow.runName` tag (unless `tags` sets that tag). */
  name?: string | null;
  /** An experiment's name from the spec; "Default" (id 0) when left out. */
  experiment?: string;
  status?: "SCHEDULED" | "FAILED" | "FINISHED" | "RUNNING" | "KILLED";
  lifecycle_stage?: "active" | "deleted";
  start_time?: number;
  end_time?: number | null;
  params?: Record<string, string>;
  tags?: Record<string, string>;
  metrics?: readonly MlflowDbMetric[];
}

export interface MlflowDbSpec {
  /** Experiments besides "Default" (id 0), given ids 1, 2, … in order. */
  experiments?: readonly string[];
  runs: readonly MlflowDbRun[];
}

/** Every statement of the schema, tables before indexes, as MLflow's migrations leave it. */
export const MLFLOW_SCHEMA_DDL: readonly string[] = [...TRACKING_DDL, ...OTHER_DDL];

const DBL_MAX = Number.MAX_VALUE;
const T0 = 1_786_000_000_000;

function createSchema(db: Database.Database): void {
  db.transaction(() => {
    for (const sql of MLFLOW_SCHEMA_DDL) db.exec(sql);
    db.prepare("INSERT INTO alembic_version (version_num) VALUES (?)").run(MLFLOW_ALEMBIC_HEAD);
    db.prepare(`INSERT INTO experiments VALUES (0, 'Default', 'mlruns/0', 'active', ?, ?)`).run(
      T0,
      T0,
    );
  })();
}

/** MLflow's stored value and is_nan for a logged value. */
function stored(m: MlflowDbMetric): [number, number] {
  if (m.is_nan || Number.isNaN(m.value)) return [0, 1];
  if (m.value === Infinity) return [DBL_MAX, 0];
  if (m.value === -Infinity) return [-DBL_MAX, 0];
  return [m.value, 0];
}

/** Whether `a` replaces `b` in latest_metrics: MLflow's (step, timestamp, value) comparison. */
function isLater(a: MlflowDbMetric, b: MlflowDbMetric): boolean {
  const [va] = stored(a);
  const [vb] = stored(b);
  return a.step !== b.step
    ? a.step > b.step
    : a.timestamp !== b.timestamp
      ? a.timestamp > b.timestamp
      : va > vb;
}

/** Appends metric rows (and keeps latest_metrics) for run `uuid`, in one transaction. */
export function addMlflowMetrics(
  db: Database.Database,
  uuid: string,
  metrics: Iterable<MlflowDbMetric>,
): void {
  const insert = db.prepare(
    "INSERT INTO metrics (key, value, timestamp, run_uuid, step, is_nan) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const latest = new Map<string, MlflowDbMetric>();
  db.transaction(() => {
    for (const m of metrics) {
      const [value, isNan] = stored(m);
      insert.run(m.key, value, m.timestamp, uuid, m.step, isNan);
      const prev = latest.get(m.key);
      if (!prev || isLater(m, prev)) latest.set(m.key, m);
    }
    const old = db.prepare(
      "SELECT key, value, timestamp, step, is_nan FROM latest_metrics WHERE run_uuid = ? AND key = ?",
    );
    const upsert = db.prepare(
      `INSERT OR REPLACE INTO latest_metrics (key, value, timestamp, step, is_nan, run_uuid)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    for (const m of latest.values()) {
      const was = old.get(uuid, m.key) as MlflowDbMetric | undefined;
      if (was && !isLater(m, { ...was, is_nan: Boolean(was.is_nan) })) continue;
      const [value, isNan] = stored(m);
      upsert.run(m.key, value, m.timestamp, m.step, isNan, uuid);
    }
  })();
}

function writeRuns(db: Database.Database, spec: MlflowDbSpec): void {
  const experiments = new Map<string, number>([["Default", 0]]);
  const addExperiment = db.prepare("INSERT INTO experiments VALUES (?, ?, ?, 'active', ?, ?)");
  (spec.experiments ?? []).forEach((name, i) => {
    experiments.set(name, i + 1);
    addExperiment.run(i + 1, name, `mlruns/${i + 1}`, T0, T0);
  });
  const addRun = db.prepare(
    `INSERT INTO runs (run_uuid, name, source_type, source_name, entry_point_name, user_id, status,
       start_time, end_time, source_version, lifecycle_stage, artifact_uri, experiment_id,
       deleted_time)
     VALUES (?, ?, 'UNKNOWN', '', '', 'trainer', ?, ?, ?, '', ?, ?, ?, ?)`,
  );
  const addTag = db.prepare("INSERT INTO tags (key, value, run_uuid) VALUES (?, ?, ?)");
  const addParam = db.prepare("INSERT INTO params (key, value, run_uuid) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (const [i, run] of spec.runs.entries()) {
      const experiment = experiments.get(run.experiment ?? "Default");
      if (experiment === undefined) throw new Error(`no experiment ${run.experiment} in the spec`);
      const start = run.start_time ?? T0 + i * 1000;
      const stage = run.lifecycle_stage ?? "active";
      addRun.run(
        run.uuid,
        run.name ?? null,
        run.status ?? "FINISHED",
        start,
        run.end_time === undefined ? start + 500 : run.end_time,
        stage,
        `mlruns/${experiment}/${run.uuid}/artifacts`,
        experiment,
        stage === "deleted" ? start + 900 : null,
      );
      const tags = { ...(run.name ? { "mlflow.runName": run.name } : {}), ...run.tags };
      for (const [k, v] of Object.entries(tags)) addTag.run(k, v, run.uuid);
      for (const [k, v] of Object.entries(run.params ?? {})) addParam.run(k, v, run.uuid);
    }
  })();
  for (const run of spec.runs) if (run.metrics) addMlflowMetrics(db, run.uuid, run.metrics);
}

/** Writes a new MLflow tracking database at `file` holding `spec`, and closes it. */
export function writeMlflowDb(file: string, spec: MlflowDbSpec): void {
  const db = new Database(file);
  try {
    createSchema(db);
    writeRuns(db, spec);
  } finally {
    db.close();
  }
}

/**
 * Writes `spec` at `file` in WAL mode as a live trainer leaves it: the schema checkpointed into the
 * database file, the runs and metrics only in its `-wal` (automatic checkpoints off). The writer
 * is returned open: closing it would checkpoint the WAL into the file and remove it.
 */
export function openMlflowWalWriter(file: string, spec: MlflowDbSpec): Database.Database {
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("wal_autocheckpoint = 0");
    createSchema(db);
    db.pragma("wal_checkpoint(TRUNCATE)");
    writeRuns(db, spec);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** `spec` written as `name` in a new temporary directory; its path. */
export function tempMlflowDb(spec: MlflowDbSpec, name = "mlflow.db"): string {
  const file = path.join(tempStore({}), name);
  writeMlflowDb(file, spec);
  return file;
}

const T1 = 1_786_032_154_000;

/** Two GRPO runs of one experiment, with params, a tag and a few rewards and losses. */
export const TWO_GRPO_RUNS: MlflowDbSpec = {
  experiments: ["grpo-math"],
  runs: [
    {
      uuid: "a1".repeat(16),
      name: "grpo-lr1e-6",
      experiment: "grpo-math",
      status: "FINISHED",
      start_time: T1,
      end_time: T1 + 60_000,
      params: { lr: "1e-06", batch_size: "64" },
      tags: { "mlflow.user": "trainer" },
      metrics: [
        { key: "train/reward", value: 0.25, step: 1, timestamp: T1 + 1000 },
        { key: "train/reward", value: 0.5, step: 2, timestamp: T1 + 2000 },
        { key: "train/loss", value: 1.5, step: 1, timestamp: T1 + 1000 },
      ],
    },
    {
      uuid: "b2".repeat(16),
      name: "grpo-lr3e-6",
      experiment: "grpo-math",
      status: "RUNNING",
      start_time: T1 + 100_000,
      end_time: null,
      params: { lr: "3e-06" },
      metrics: [{ key: "train/reward", value: 0.75, step: 1, timestamp: T1 + 101_000 }],
    },
  ],
};
