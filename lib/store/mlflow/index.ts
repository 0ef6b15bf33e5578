// MLflow tracking databases as a store format: the schema MLflow's migrations leave (./ddl-*),
// whether a database is MLflow's (./schema), its runs and which one a run is (./runs). Pure SQL over
// an open database (lib/store's withSqliteSnapshot opens one); the metric history is lib/trainer's.
export { MLFLOW_ALEMBIC_HEAD, TRACKING_DDL } from "./ddl-tracking";
export { OTHER_DDL } from "./ddl-other";
export {
  listMlflowRuns,
  MAX_RUN_PARAMS,
  type MlflowRunInfo,
  type MlflowRuns,
  pickMlflowRun,
  type PickedRun,
} from "./runs";
export { isMlflowDatabase, MLFLOW_COLUMNS, mlflowSchemaProblem } from "./schema";
