// The contract of text search: a rollout's best match for the table's `text=` query, the run's
// search availability, and find within one rollout's chain.
import { z } from "zod";

const int = z.number().int();

export const textKindSchema = z.enum(["generated", "input", "error"]);

/**
 * A rollout's searchable text as index shards carry it beside the summary (lib/rollout/search-text
 * makes it; the summary index keeps the same in SQLite): its UTF-8 bytes in base64 (raw-deflated
 * when `deflated`), how many they are, and its segments `[kind, call id, first token on the main
 * chain (-1: an error body), tokens, byte offset]`, kind g (generated), i (re-fed input: prompt,
 * tool output, user turn) or e (error). Parsed where a shard is read.
 */
export const searchTextSchema = z.strictObject({
  body: z.base64(),
  deflated: z.boolean(),
  bytes: int.nonnegative(),
  segments: z.array(z.tuple([z.enum(["g", "i", "e"]), z.string(), int, int, int])),
  /** False: its trigrams barely repeat, so it is not trigram-indexed and a query checks it. */
  trigrams: z.boolean(),
});

/** Where a rollout's text first matches the query, with the text around it. */
export const textHitSchema = z.strictObject({
  kind: textKindSchema,
  /** The call whose text it is. */
  call: z.string(),
  /** The segment's first token on the main chain (null for an error body, which has no tokens). */
  pos: int.nullable(),
  before: z.string(),
  match: z.string(),
  after: z.string(),
});

/** Whether the run's text is searchable, and why not. */
export const textSearchSchema = z.strictObject({
  /** The tokenizer text is decoded with; null when the run names none (search needs one). */
  tokenizer: z.string().nullable(),
  /** Rollouts whose text is in the index so far. */
  indexed: int,
  /** Why search cannot run, in words; null when it can. */
  unavailable: z.string().nullable(),
});

/** Every match of a find in one chain of one rollout. */
export const findResultSchema = z.strictObject({
  query: z.string(),
  chain: z.string(),
  /** Matches in chain order: the tokens they cover and the message (call) they are in. */
  matches: z.array(
    z.strictObject({ start: int, end: int, call: z.string(), kind: textKindSchema }),
  ),
  /** Matches past this many are counted but not listed. */
  total: int,
  truncated: z.boolean(),
  /** Why nothing can be found (no tokenizer), or null. */
  unavailable: z.string().nullable(),
});

export type SearchText = z.infer<typeof searchTextSchema>;
export type TextSegment = SearchText["segments"][number];
export type TextKind = TextSegment[0];
export type TextKindName = z.infer<typeof textKindSchema>;
export type TextHit = z.infer<typeof textHitSchema>;
export type TextSearch = z.infer<typeof textSearchSchema>;
export type FindResult = z.infer<typeof findResultSchema>;
