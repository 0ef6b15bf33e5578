// The rollout inspector's model: built once per file version on the store worker pool, then paged
// as tokens, routed experts, calls, conversation, call detail and find.
export { callDetail } from "./call-detail";
export { type ChainMessage, type ChainMessages, chainMessages } from "./chain-messages";
export { conversationPage, parseConversationQuery } from "./conversation";
export { expertsWindow } from "./experts-window";
export { findInRollout } from "./find";
export {
  inspectProgress,
  inspectRollout,
  rolloutFacts,
  rolloutModel,
  rolloutStamp,
} from "./rollout-model";
export { knownRunPolicy } from "./run-policy";
export { firstWindow, lowProbTokens, segmentedWindow, tokenWindow } from "./token-window";
