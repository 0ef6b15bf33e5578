// The store readers (token store, model-call capture store, JSONL, listings, ids), read-only and
// confined to their store. File versions (./file-version) and the per-version file cache
// (./versioned-cache) are imported by path.
import "server-only";
export * from "./rollout-id";
export * from "./jsonl";
export { lineRanges, type LineRanges } from "./line-ranges";
export * from "./files";
export { ListedRollouts, packListing, type PackedListing, unpackListing } from "./listed-rollouts";
export * from "./token-store";
export * from "./capture-store";
export * from "./exchange-error";
export {
  confine,
  type Confinement,
  confinementOf,
  isInside,
  OutsideStoreError,
  resolveConfined,
} from "./confine";
export { fileState, fileVersion, versionOf } from "./file-version";
export { emptyLifecycle } from "./gym-read";
export {
  onStoreWorker,
  openRegular,
  readdirWithin,
  readRegularFile,
  StoreWorkerPool,
  memoryBudget,
  boundHeapGrowth,
  nextTurn,
  turnQueue,
  type JobContext,
  SQLITE_SNAPSHOT_MAX_BYTES,
  SqliteSnapshotError,
  withSqliteSnapshot,
  serveStoreJobs,
  type WorkerFailure,
} from "./io";
export {
  existsAt,
  holdsTokenFiles,
  isTokenFileName,
  isDirectory,
  isRegularFile,
  listSubdirectories,
  readTextFile,
  realpath,
} from "./run-files";
export { explainStoreProfile, storeProfile } from "./evidence";
export {
  isMlflowDatabase,
  listMlflowRuns,
  type MlflowRunInfo,
  mlflowSchemaProblem,
  pickMlflowRun,
} from "./mlflow";
export { type ScannedLists } from "./token-line";
export { cachedOrError } from "./versioned-cache";
export { describeZodError } from "./zod-message";
