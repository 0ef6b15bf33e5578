// The store worker pool: worker threads that read and parse store files off the main thread, each
// synchronous file call watched so a hung mount fails its job instead of the server.
export {
  lstatWithin,
  onStoreWorker,
  openRegular,
  readChunks,
  readdirWithin,
  readRegularFile,
  realpathWithin,
  StalledReadError,
  statWithin,
} from "./file";
export { MEMORY_BUDGET_BYTES, MemoryBudget, memoryBudget } from "./budget";
export { boundHeapGrowth } from "./heap";
export { StoreWorkerPool } from "./pool";
export { nextTurn, turnQueue } from "./turn";
export {
  SQLITE_SNAPSHOT_MAX_BYTES,
  SqliteSnapshotError,
  withSqliteSnapshot,
} from "./sqlite-snapshot";
export { type JobContext, serveStoreJobs, type WorkerFailure } from "./serve";
