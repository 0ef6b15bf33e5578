// MLflow tracking databases (SQLite, `mlflow.db`), read strictly read-only: whether a database is
// MLflow's, its runs, which one a run is, and that run's metric history as scalar points.
export { readMlflowDbMetrics, type MetricRowsRead } from "./metrics";
export { parseMlflowDatabase, type MlflowDatabaseRead } from "./parse";
export {
  listMlflowRuns,
  MAX_RUN_PARAMS,
  type MlflowRunInfo,
  type MlflowRuns,
  pickMlflowRun,
  type PickedRun,
} from "./runs";
export { isMlflowDatabase, mlflowSchemaProblem } from "./schema";
