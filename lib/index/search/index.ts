// Text search over a run's rollouts: the query parser, the text's tables and the exact check.
export { parseTextQuery, type TextQuery } from "./parse";
export { textHitsOf } from "./match";
export { indexTextSoon, textIndexingIdle } from "./indexer";
export {
  deleteSearchText,
  dropOrphanText,
  pendingTextCount,
  pendingTextIn,
  openSearch,
  SEARCH_TABLES,
  retireTrigrams,
  searchTextTotals,
  trigramFileOf,
  trigramsDone,
  TRIGRAM_FTS,
  TRIGRAM_TABLES,
  writeSearchText,
} from "./store";
