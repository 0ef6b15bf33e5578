import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import {
  MLFLOW_SCHEMA_DDL,
  TWO_GRPO_RUNS,
  tempMlflowDb,
  type MlflowDbSpec,
} from "@/lib/testing/mlflow-db";
import { MLFLOW_ALEMBIC_HEAD } from "./ddl-tracking";
import {
  isMlflowDatabase,
  listMlflowRuns,
  MAX_RUN_PARAMS,
  mlflowSchemaProblem,
  pickMlflowRun,
} from "./index";

const dbs: Database.Database[] = [];
afterEach(() => dbs.splice(0).forEach((db) => db.close()));

function dbOf(spec: MlflowDbSpec | string): Database.Database {
  const db =
    typeof spec === "string"
      ? new Database(":memory:")
      : new Database(tempMlflowDb(spec), { readonly: true });
  if (typeof spec === "string") db.exec(spec);
  dbs.push(db);
  return db;
}

const [A, B] = TWO_GRPO_RUNS.runs;

describe("an MLflow tracking database", () => {
  it("has MLflow 3.5's tables, indexes and alembic revision, and is recognised", () => {
    const db = dbOf(TWO_GRPO_RUNS);
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .pluck()
      .all();
    const created = MLFLOW_SCHEMA_DDL.filter((s) => s.startsWith("CREATE TABLE"));
    expect(tables).toHaveLength(created.length);
    expect(tables).toEqual(expect.arrayContaining(["metrics", "latest_metrics", "runs", "jobs"]));
    expect(db.prepare("SELECT version_num FROM alembic_version").pluck().all()).toEqual([
      MLFLOW_ALEMBIC_HEAD,
    ]);
    const metricIndexes = db
      .prepare("SELECT name FROM pragma_index_list('metrics') ORDER BY name")
      .pluck()
      .all();
    expect(metricIndexes).toEqual(["index_metrics_run_uuid", "sqlite_autoindex_metrics_1"]);
    expect(isMlflowDatabase(db)).toBe(true);
  });

  it("lists both runs with their experiment, params and tags", () => {
    const { runs, notes } = listMlflowRuns(dbOf(TWO_GRPO_RUNS));
    expect(notes).toEqual([]);
    expect(runs).toEqual([
      {
        run_uuid: A!.uuid,
        name: A!.name,
        experiment_id: "1",
        experiment_name: "grpo-math",
        status: "FINISHED",
        start_time: A!.start_time,
        end_time: A!.end_time,
        lifecycle_stage: "active",
        params: { batch_size: "64", lr: "1e-06" },
        tags: { "mlflow.runName": A!.name, "mlflow.user": "trainer" },
      },
      {
        run_uuid: B!.uuid,
        name: B!.name,
        experiment_id: "1",
        experiment_name: "grpo-math",
        status: "RUNNING",
        start_time: B!.start_time,
        end_time: null,
        lifecycle_stage: "active",
        params: { lr: "3e-06" },
        tags: { "mlflow.runName": B!.name },
      },
    ]);
  });

  it("leaves deleted runs out with a note, and names a run from its tag before runs.name", () => {
    const db = dbOf({
      runs: [
        { uuid: "e5".repeat(16), name: "old", lifecycle_stage: "deleted" },
        { uuid: "f6".repeat(16), name: "column-name", tags: { "mlflow.runName": "tag-name" } },
      ],
    });
    const { runs, notes } = listMlflowRuns(db);
    expect(runs.map((r) => [r.run_uuid, r.name])).toEqual([["f6".repeat(16), "tag-name"]]);
    expect(notes).toEqual(["1 deleted run (lifecycle_stage 'deleted') left out"]);
  });

  it("bounds params per run, with a note", () => {
    const many = MAX_RUN_PARAMS + 20;
    const params = Object.fromEntries(
      Array.from({ length: many }, (_, i) => [`p${String(i).padStart(4, "0")}`, "1"]),
    );
    const db = dbOf({ runs: [{ uuid: "a0".repeat(16), name: "big", params }] });
    const { runs, notes } = listMlflowRuns(db);
    expect(Object.keys(runs[0]!.params)).toHaveLength(MAX_RUN_PARAMS);
    expect(runs[0]!.params.p0499).toBe("1");
    expect(runs[0]!.params.p0500).toBeUndefined();
    expect(notes).toEqual([`run big: ${many} params; the first ${MAX_RUN_PARAMS} by key kept`]);
  });
});

describe("pickMlflowRun", () => {
  const { runs } = listMlflowRuns(dbOf(TWO_GRPO_RUNS));

  it("picks by name or id (any case), and the only run when none is named", () => {
    expect(pickMlflowRun(runs, B!.name).run?.run_uuid).toBe(B!.uuid);
    expect(pickMlflowRun(runs, A!.uuid.toUpperCase()).run?.name).toBe(A!.name);
    expect(pickMlflowRun(runs.slice(0, 1))).toEqual({ run: runs[0], note: null });
  });

  it("picks none among several unnamed, saying how many and how to pick", () => {
    expect(pickMlflowRun(runs)).toEqual({
      run: null,
      note: `2 runs ("grpo-lr1e-6", "grpo-lr3e-6"); run.json's "mlflow_run" (a run's name or id) picks one`,
    });
  });

  it("picks none for a name no run or several runs have", () => {
    expect(pickMlflowRun(runs, "nope").note).toBe(
      `no run named or with id "nope" among 2 ("grpo-lr1e-6", "grpo-lr3e-6")`,
    );
    const twins = runs.map((r) => ({ ...r, name: "grpo" }));
    expect(pickMlflowRun(twins, "grpo").note).toBe(
      `2 runs are named "grpo" (ids ${A!.uuid}, ${B!.uuid}); give "mlflow_run" the id of one`,
    );
    expect(pickMlflowRun([], "x")).toEqual({
      run: null,
      note: "no runs (other than deleted ones)",
    });
  });
});

describe("mlflowSchemaProblem", () => {
  it("tells another application's database from MLflow's", () => {
    const db = dbOf("CREATE TABLE users (id INTEGER); CREATE TABLE orders (id INTEGER)");
    expect(isMlflowDatabase(db)).toBe(false);
    expect(mlflowSchemaProblem(db)).toBe(
      "an SQLite database, but not MLflow's (none of its tables: experiments, runs, metrics…)",
    );
  });

  it("names the tables and columns a look-alike lacks", () => {
    const db = dbOf(
      `CREATE TABLE experiments (experiment_id, name);
       CREATE TABLE runs (run_uuid, name, experiment_id, status, start_time, end_time, lifecycle_stage);
       CREATE TABLE tags (key, value, run_uuid);
       CREATE TABLE metrics (key, value, timestamp, run_uuid, step)`,
    );
    expect(mlflowSchemaProblem(db)).toBe(
      "not an MLflow tracking database: no table params; no column metrics.is_nan",
    );
  });
});
