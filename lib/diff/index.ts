// Two rollouts side by side: the pure alignment of two token sequences (first divergence, messages
// aligned by content, a bounded token diff inside one message pair) and the diff route's answer
// over two inspected rollouts (server only). docs/pages.md "The diff page", docs/routes.md.
export {
  type AlignedRow,
  alignMessages,
  diffTokens,
  firstDivergence,
  MAX_MESSAGE_EDITS,
  MAX_TOKEN_DIFF_LENGTH,
  MAX_TOKEN_EDITS,
  type RowKind,
  type Span,
  spanKeys,
  type TokenDiff,
  type TokenOp,
} from "./align";
export { type DiffRequest, diffRollouts, parseRolloutRef } from "./rollouts";
export { otherAttempts, sameRolloutElsewhere } from "./candidates";
