// One line of `<rollout_id>.tokens.jsonl`: a TokenEntry of any writer generation
// (seed/July records without schema_version, Gym main schema_version 1). Unknown keys are kept.
// Cross-field rules that depend on the builder profile (log-prob counts) are left to the builder.
import { z } from "zod";
import { anyIntegerIdArray, logProbArray, tokenIdArray } from "./token-ids";

/** The newest `schema_version` this reader understands (Gym main, Aug 2026). */
export const MAX_SCHEMA_VERSION = 1;

export const tokenEntrySchema = z.looseObject({
  schema_version: z.int().optional(),
  rollout_id: z.string(),
  model_call_id: z.string().min(1, "model_call_id is empty"),
  model: z
    .string()
    .nullish()
    .transform((v) => v ?? ""),
  prompt_token_ids: tokenIdArray,
  generation_token_ids: tokenIdArray,
  generation_log_probs: logProbArray,
  routed_experts: z
    .unknown()
    .optional()
    .transform((v) => v ?? null),
  output_items: z
    .array(z.record(z.string(), z.unknown()))
    .nullish()
    .transform((v) => v ?? []),
  token_item_index: z
    .int()
    .nullish()
    .transform((v) => v ?? null),
  created_at: z
    .number()
    .nullish()
    .transform((v) => v ?? 0),
  requested_model: z
    .string()
    .nullish()
    .transform((v) => v ?? ""),
  has_tools: z
    .boolean()
    .nullish()
    .transform((v) => v ?? null),
  parent_call_id: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  cum_len: z
    .int()
    .nonnegative()
    .nullish()
    .transform((v) => v ?? null),
  digest: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  response_id: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
});

/**
 * Token ids as the store reader gives them: an array (JSON.parse), or an Int32Array view that may
 * share its buffer with the file's other prompts (lib/store/token-line). Never written to.
 */
export type TokenIds = readonly number[] | Int32Array;

/** A validated entry; its prompt may be a shared Int32Array view (TokenIds). */
export type TokenEntry = WithPromptIds<z.infer<typeof tokenEntrySchema>>;

/** `T` with its prompt as TokenIds (a homomorphic map keeps the loose object's known keys). */
type WithPromptIds<T> = { [K in keyof T]: K extends "prompt_token_ids" ? TokenIds : T[K] };

/** A line as Gym main's entry read validates it (docs/gym-v1-store.md §4): any integer token id. */
export const gymTokenEntrySchema = tokenEntrySchema.extend({
  prompt_token_ids: anyIntegerIdArray,
  generation_token_ids: anyIntegerIdArray,
});
export type TokenEntryInput = z.input<typeof tokenEntrySchema>;

/** The writer generation a record comes from, for labels and profile choice. */
export function writerGeneration(entry: TokenEntry): "seed" | "gym-v1" {
  return entry.schema_version === undefined ? "seed" : "gym-v1";
}
