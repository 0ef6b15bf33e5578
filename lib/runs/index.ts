// Run discovery and a run's own files: the runs root and run.json, metrics.jsonl, rollouts.jsonl and
// its fields, the builder profile a run is judged by, GRPO groups. Reading one rollout is lib/rollout;
// the SQLite index over a run is lib/index.
export {
  ADVANTAGE_SOURCE,
  type AdvantageOptions,
  DEFAULT_GROUP_FIELD,
  EPSILON,
  groupOf,
  type GroupsQuery,
  type Member,
  parseAdvantageRule,
  parseGroupsQuery,
} from "./groups";
export { type LoggedByRollout, withLoggedAdvantages } from "./logged-advantages";
export { type MetricsRow, readMetrics, type RunMetrics } from "./metrics";
export { decideRunProfile, type ProfileDecision } from "./profile";
export {
  checkFields,
  columnValues,
  discoverFields,
  isFieldPath,
  parseRecordColumnsQuery,
  type RecordColumnsQuery,
  type RecordLike,
} from "./record-fields";
export {
  readRolloutRecords,
  recordHash,
  recordTextHash,
  type RolloutRecords,
} from "./rollout-records";
export { getRun, isOneRun, listRuns, resolveRunLayout, type RunLayout, runsRoot } from "./root";
export { runsHeldBy } from "./holders";
