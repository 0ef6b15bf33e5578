// What the pages show, as pure functions of the API's data: words, palettes, the call timeline,
// the conversation, the token rows, inspector URLs. No file, database or Node API.
export {
  moveInTimeline,
  timelineCursor,
  visibleRows,
  compact,
  modelText,
  seconds,
  buildTimeline,
  type DanglingIntent,
  isCall,
  type TimelineRow,
  timelinePositions,
} from "./timeline";
export { callsMade, storeUnread } from "./calls-made";
export { type RawMessage } from "./chat-template";
export {
  type SequencePart,
  sliceParts,
  tokenColumns,
  binColours,
  pageConversation,
  PROBABILITY_BINS,
  shadeSpans,
  shadeWindow,
  shadedBlocks,
  buildConversation,
  type Conversation,
  type ConversationCall,
  type ConversationEvent,
} from "./conversation";
export { type DiffEnd, diffHref } from "./diff-link";
export { droppedWords } from "./dropped-words";
export { formatBytes, signed } from "./format";
export { pushTo } from "./group";
export {
  callToFind,
  callTokensPatch,
  conversationSearch,
  INSPECTOR_TABS,
  type InspectorTab,
  messageOf,
  positionOf,
  selectCall,
  selectedCallOf,
  sequenceOf,
  type SequenceSource,
  shadeOf,
  tabOf,
  TOKEN_WINDOW,
  windowStart,
} from "./inspector-url";
export { excludedReason, mainRule, otherProfileSummary, outputItemText } from "./inspector-words";
export { maskReasonShort } from "./mask-reasons";
export { requestMessages, responseMessage } from "./message-bodies";
export { MISMATCH_SHADES, mismatchShade, NO_MISMATCH } from "./mismatch-palette";
export {
  THEME_CHOICES,
  THEME_COOKIE,
  type ThemeChoice,
  themeChoiceOf,
  themeCookie,
} from "./palette";
export {
  alertRolloutHref,
  alertTableHref,
  type BucketChart,
  bucketTableHref,
  chartBucketQuery,
  deliveredBucket,
  inspectorHref,
  isBucketShown,
  maskReasonKeys,
  neighborHref,
  neighborsUrl,
  type ReasonOption,
  reasonOptions,
  TABLE_QUERY_KEYS,
  tableHref,
  textHitHref,
} from "./rollout-nav";
export { noTextMatchWords, TEXT_KIND_WORDS, textIndexedWords } from "./search-words";
export { rolloutSeverity } from "./rollout-severity";
export { rootsDifference } from "./roots-words";
export { sequenceTraining, type SequenceTraining } from "./sequence-training";
export {
  CANVAS,
  CHROME,
  GENERATED_SHADES,
  generatedShade,
  NOT_TRAINED,
  QUIET,
  REFED,
  type Swatch,
  tokenSwatch,
  UNSCORED,
} from "./token-palette";
export {
  callAt,
  callStart,
  headOfText,
  infoTokens,
  itemOfCall,
  itemOfPosition,
  jumpValue,
  moveCursor,
  noChainWords,
  segmentLabel,
  tailOfText,
  type TokenItem,
  tokenItems,
  type TokenLine,
  visibleText,
  NEW_INPUT_WORDS,
} from "./token-rows";
export { verdictLabel } from "./verdict-label";
export { mismatchTokenHref, tokenAtHref } from "./token-link";
export {
  LEDGER_SEGMENTS,
  ledgerRows,
  ledgerTotals,
  type LedgerRow,
  rerenderRows,
  type RerenderRow,
  type Segment,
  type SegmentKey,
  segmentQuery,
  segmentsOf,
  STEPLESS_WORDS,
  unknownStages,
} from "./ledger";
export { type ExpertLoad, expertLoad, routeWords } from "./expert-load";
