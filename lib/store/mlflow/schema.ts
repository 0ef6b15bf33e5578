// Whether an SQLite database is an MLflow tracking database: it has the tables and columns this
// reader queries (MLflow has kept them since 1.x; ./ddl-tracking has the whole of 3.5's schema).
// Newer columns and tables beside them are fine. Not responsible for opening the file
// (lib/store's withSqliteSnapshot) nor for the alembic revision, which is not checked.
import type Database from "better-sqlite3";

/** The columns each query of ./runs and ./metrics reads, by table. */
export const MLFLOW_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  experiments: ["experiment_id", "name"],
  runs: [
    "run_uuid",
    "name",
    "experiment_id",
    "status",
    "start_time",
    "end_time",
    "lifecycle_stage",
  ],
  tags: ["key", "value", "run_uuid"],
  params: ["key", "value", "run_uuid"],
  metrics: ["key", "value", "timestamp", "run_uuid", "step", "is_nan"],
};

/** What keeps `db` from being read as MLflow's (a missing table or column), or null when nothing. */
export function mlflowSchemaProblem(db: Database.Database): string | null {
  const columnsOf = db.prepare("SELECT name FROM pragma_table_info(?)").pluck();
  const missingTables: string[] = [];
  const missingColumns: string[] = [];
  for (const [table, wanted] of Object.entries(MLFLOW_COLUMNS)) {
    const have = new Set(columnsOf.all(table) as string[]);
    if (have.size === 0) missingTables.push(table);
    else for (const c of wanted) if (!have.has(c)) missingColumns.push(`${table}.${c}`);
  }
  if (missingTables.length === Object.keys(MLFLOW_COLUMNS).length)
    return "an SQLite database, but not MLflow's (none of its tables: experiments, runs, metrics…)";
  const missing = [
    ...(missingTables.length ? [`table ${missingTables.join(", ")}`] : []),
    ...(missingColumns.length ? [`column ${missingColumns.join(", ")}`] : []),
  ];
  return missing.length ? `not an MLflow tracking database: no ${missing.join("; no ")}` : null;
}

/** Whether `db` has the tables and columns of an MLflow tracking database. */
export function isMlflowDatabase(db: Database.Database): boolean {
  return mlflowSchemaProblem(db) === null;
}
