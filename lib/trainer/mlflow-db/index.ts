// MLflow tracking databases (SQLite, `mlflow.db`), read strictly read-only: a run's metric history
// as scalar points, and one call doing all a worker needs for a file. The schema and the runs of a
// database are lib/store's (lib/store/mlflow).
export { readMlflowDbMetrics, type MetricRowsRead } from "./metrics";
export { parseMlflowDatabase, type MlflowDatabaseRead } from "./parse";
