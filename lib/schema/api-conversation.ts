// The conversation route's wire contract (`…/rollouts/{rollout}/conversation`): a chain as messages
// by role, with every text span tied to its token range and loss mask, paged over items. Strict
// objects, snake_case; the server builds these types and the browser parses every page with them.
import { z } from "zod";

export const conversationRoleSchema = z.enum(["system", "user", "assistant", "tool", "other"]);
export const conversationBlockKindSchema = z.enum([
  "text",
  "reasoning",
  "tool_call",
  "tool_result",
]);
/** Where a message's blocks came from: split tokens, an exchange body, or a raw segment. */
export const conversationSourceSchema = z.enum(["tokens", "request", "response", "segment"]);
export const chatTemplateSchema = z.enum(["chatml", "llama3", "plain"]);

/** Text of consecutive tokens with one loss mask; `start`/`end` are positions in the sequence. */
export const maskSpanSchema = z.strictObject({
  text: z.string(),
  mask: z.union([z.literal(0), z.literal(1)]),
  start: z.int(),
  end: z.int(),
});

export const conversationBlockSchema = z.strictObject({
  kind: conversationBlockKindSchema,
  /** Tool name of a tool call (null elsewhere, or when the call's text names none). */
  name: z.string().nullable(),
  tool_call_id: z.string().nullable(),
  spans: z.array(maskSpanSchema),
  /** Characters of the whole block; the spans hold at most the page's `clip` of them. */
  chars: z.int(),
  truncated: z.boolean(),
});

export const conversationMessageSchema = z.strictObject({
  kind: z.literal("message"),
  index: z.int(),
  role: conversationRoleSchema,
  /** The role as written (`ipython`, `developer`, `prompt`…). */
  label: z.string(),
  source: conversationSourceSchema,
  /** The call whose tokens or exchange the message came from. */
  call: z.string(),
  /** Token range in the sequence, header and end marker included. */
  start: z.int(),
  end: z.int(),
  /** False when the range is the whole call part the message came in with (exchange bodies). */
  exact: z.boolean(),
  generated: z.int(),
  mean_log_prob: z.number().nullable(),
  blocks: z.array(conversationBlockSchema),
});

/** A side call, placed where it happened; its own messages are the sequence `call:<id>`. */
export const conversationSideCallSchema = z.strictObject({
  kind: z.literal("side_call"),
  index: z.int(),
  call: z.string(),
  sequence: z.string(),
  created_at: z.number(),
  reason: z.string(),
  model: z.string(),
  prompt_len: z.int(),
  generated_len: z.int(),
  preview: z.string(),
});

/** A model call that failed over HTTP (no token entry), placed where it happened. */
export const conversationFailedCallSchema = z.strictObject({
  kind: z.literal("failed_call"),
  index: z.int(),
  call: z.string(),
  started_at: z.number().nullable(),
  status_code: z.int().nullable(),
  error: z.string(),
});

export const conversationItemSchema = z.discriminatedUnion("kind", [
  conversationMessageSchema,
  conversationSideCallSchema,
  conversationFailedCallSchema,
]);

export const conversationPageSchema = z.strictObject({
  sequence: z.string(),
  template: chatTemplateSchema,
  /** False without a tokenizer: token text is then the ids. */
  decoded: z.boolean(),
  /** Items (messages, side calls, failed calls) in the whole conversation. */
  total: z.int(),
  offset: z.int(),
  clip: z.int(),
  /** Tokens in the sequence, and how many of them are generated (mask 1). */
  length: z.int(),
  generated: z.int(),
  items: z.array(conversationItemSchema),
});

export const MAX_CONVERSATION_LIMIT = 200;
export const MAX_CONVERSATION_CLIP = 200_000;

/** Query parameters: `chain` is `main`, a chain id or `call:<id>`; offset/limit count items. */
export const conversationQuerySchema = z.strictObject({
  chain: z.string().min(1).max(300).default("main"),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_CONVERSATION_LIMIT).default(50),
  clip: z.coerce.number().int().min(1).max(MAX_CONVERSATION_CLIP).default(2000),
});

export type ConversationRole = z.infer<typeof conversationRoleSchema>;
export type ConversationBlockKind = z.infer<typeof conversationBlockKindSchema>;
export type ConversationSource = z.infer<typeof conversationSourceSchema>;
export type ChatTemplate = z.infer<typeof chatTemplateSchema>;
export type MaskSpan = z.infer<typeof maskSpanSchema>;
export type ConversationBlock = z.infer<typeof conversationBlockSchema>;
export type ConversationMessage = z.infer<typeof conversationMessageSchema>;
export type ConversationSideCall = z.infer<typeof conversationSideCallSchema>;
export type ConversationFailedCall = z.infer<typeof conversationFailedCallSchema>;
export type ConversationItem = z.infer<typeof conversationItemSchema>;
export type ConversationPage = z.infer<typeof conversationPageSchema>;
export type ConversationQuery = z.infer<typeof conversationQuerySchema>;
