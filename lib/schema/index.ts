// Every zod schema and inferred type, one file per file type (token entry, capture exchange, store
// state, rollout record, run manifest) and per API family (errors, runs, the rollout inspector).
export * from "./token-entry";
export { fastTokenEntry } from "./token-entry-fast";
export * from "./capture-exchange";
export * from "./store-state";
export * from "./rollout-record";
export * from "./run-manifest";
export * from "./api";
export * from "./api-rollout";
export * from "./api-tokens";
export * from "./api-experts";
export * from "./api-call-detail";
export * from "./api-runs";
export * from "./api-export";
export * from "./api-search";
export * from "./api-run-list";
export * from "./api-compare";
export * from "./api-training";
export {
  type HotspotMoe,
  type HotspotRow,
  type HotspotStat,
  type HotspotsQuery,
  hotspotsQuerySchema,
  type TrainerHotspots,
  trainerHotspotsSchema,
} from "./api-hotspots";
export * from "./api-diff";
export * from "./api-ledger";
export {
  type ChatTemplate,
  type ConversationBlock,
  type ConversationBlockKind,
  type ConversationFailedCall,
  type ConversationItem,
  type ConversationMessage,
  type ConversationPage,
  conversationPageSchema,
  type ConversationQuery,
  conversationQuerySchema,
  type ConversationRole,
  type ConversationSideCall,
  type MaskSpan,
  MAX_CONVERSATION_LIMIT,
} from "./api-conversation";
export {
  type AdvantageRule,
  type BaselineKind,
  baselineKindSchema,
  type FieldValue,
  type LoggedAdvantages,
  type RecordField,
  type RecordFields,
  recordFieldsSchema,
  type RolloutGroup,
  type RunGroups,
  runGroupsSchema,
  type StepSignal,
} from "./api-groups";
export {
  type BuildProgress,
  buildProgressSchema,
  type RolloutNeighbors,
  rolloutNeighborsSchema,
} from "./api-progress";
export {
  type LoggedCheck,
  MISMATCH_BIN_EDGES,
  type MismatchDistribution,
  mismatchDistributionSchema,
  type RolloutMismatch,
  type RolloutMismatchQuery,
  rolloutMismatchQuerySchema,
  rolloutMismatchSchema,
  type TrainerDiffers,
  type TrainerTruth,
  trainerTruthSchema,
  type TruthSample,
  type TruthStep,
} from "./api-trainer";
export {
  API,
  type AnswerOf,
  type ApiRoute,
  apiUrl,
  type CallParams,
  DOWNLOADS,
  type Download,
  type ParamsOf,
  type Query,
  type RolloutParams,
  type RunParams,
  withQuery,
} from "./api-routes";
