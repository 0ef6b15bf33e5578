// One rollout read and decided: its store files built into chains (in-process or on the store
// worker pool), its summary (verdict, lifecycle, severity facts) and the worker's job table.
export { buildRollout, rolloutSourceOf, rolloutVersion } from "./build";
export { cacheDamage, DamagedCache, describeDamage, isDamage } from "./cache-check";
export {
  countOutsideIds,
  danglingIntentsOf,
  decidedEntries,
  hasCapture,
  hasLifecycleFiles,
  inheritedLengths,
  mainModelOf,
  storeFacts,
} from "./facts";
export { expertFactsOf } from "./experts";
export { classifyStoreError, isStoreJob, runStoreJob, type StoreJob } from "./jobs";
export {
  buildRolloutOffThread,
  readTokenizerOffThread,
  reviveStoreError,
  storePool,
  storeWorkerScript,
} from "./pool";
export { type SearchTokenizer } from "./search-decoder";
export {
  type IndexedText,
  SEGMENT_SEPARATOR,
  searchTextJson,
  searchTextOfJson,
} from "./search-text";
export { rawDeflate, rawInflate } from "./raw-deflate";
export {
  type IndexedSummary,
  recordSummary,
  type SummarizeInput,
  summarizeSafely,
} from "./summarize";
export { severityOf } from "./severity";
