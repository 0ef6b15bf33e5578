// A sequence as a conversation: messages split at the chat template's markers, their token columns
// and spans, probability shading, and pages for the wire.
export {
  buildConversation,
  type Conversation,
  type ConversationCall,
  type ConversationEvent,
} from "./build";
export { type SequencePart, sliceParts, tokenColumns } from "./columns";
export { binColours, pageConversation, PROBABILITY_BINS } from "./page";
export { shadeSpans, shadeWindow } from "./shade";
export { shadedBlocks } from "./spans";
