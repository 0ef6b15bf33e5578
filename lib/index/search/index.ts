// Text search over a run's rollouts: the query parser, the text's tables and the exact check.
export { KIND_NAMES, parseTextQuery, type TextQuery, textQueryKey } from "./parse";
export { bestHit, textHitsOf, textMatches } from "./match";
export {
  CREATE_SEARCH,
  deleteSearchText,
  dropOrphanText,
  indexPendingText,
  indexTextSoon,
  pendingTextCount,
  openSearch,
  SEARCH_TABLES,
  searchTextTotals,
  writeSearchText,
} from "./store";
