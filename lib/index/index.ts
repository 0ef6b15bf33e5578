// The summary index: one SQLite row per rollout kept beside (never inside) the runs root, the
// records table, live updates, the table query and its exports, and shard files (./shards).
export { TAG } from "./columns";
export { exportStream } from "./export-stream";
export { rolloutGroupSql, runGroupsSql } from "./groups-sql";
export { alertTableQuery, parseRolloutQuery } from "./query";
export { recordsOf } from "./record-rows";
export { isRecordsJob, readRecordRange } from "./record-range";
export {
  pendingTextCount,
  pendingTextIn,
  SEARCH_TABLES,
  TRIGRAM_FTS,
  TRIGRAM_TABLES,
  trigramFileOf,
} from "./search";
export {
  idsOfSteps,
  recordAgents,
  recordColumnsSql,
  recordOf,
  type RecordRead,
  withSyncedRecords,
} from "./records-sql";
export { indexFor, type IndexSnapshot, SummaryIndex } from "./run-index";
export { onIndexSettled } from "./settled";
export { recordsWriteFloor, type RecordsWriteFloor } from "./write-floor";
export {
  rolloutPage,
  runFactsOf,
  servedNeighbours,
  servedRows,
  servedSnapshot,
  waitFor,
} from "./served";
export {
  codeVersionAt,
  indexShard,
  mergeShards,
  readShardDir,
  ShardError,
  shardFileName,
} from "./shards";
export {
  factParams,
  NO_CAPTURE_SQL,
  OTHER_MODEL_SQL,
  type RunFacts,
  SERVED_MASKED_SQL,
  SERVED_SEVERITY_SQL,
  TRAINER_SQL,
} from "./sql";
export { setTrainerDiffers, trainerDiffersOf } from "./trainer-facts";
export {
  equalRewardSums,
  groupSignalOf,
  ledgerStepSums,
  rerenderedRollouts,
  type EqualRewardSums,
  type LedgerStepSums,
} from "./ledger-sql";
