// The token store's hot path: a line that is a plain, well-formed TokenEntry is checked and shaped
// here in one pass, with what `tokenEntrySchema.parse` gives it (the same keys in the same order,
// the same defaults); anything else, down to one field of an unexpected type, returns null and
// goes to the schema, which accepts or names the fault. zod's object machinery was 7% of a token
// run's index CPU (docs/benchmarks.md). token-entry-fast.test.ts checks it against the schema.
import type { z } from "zod";
import { isTokenId } from "./token-ids";
import type { tokenEntrySchema } from "./token-entry";

type Entry = z.infer<typeof tokenEntrySchema>;

/** The schema's keys in its order: the output's order, before the line's other keys. */
const KNOWN = new Set([
  "schema_version",
  "rollout_id",
  "model_call_id",
  "model",
  "prompt_token_ids",
  "generation_token_ids",
  "generation_log_probs",
  "routed_experts",
  "output_items",
  "token_item_index",
  "created_at",
  "requested_model",
  "has_tools",
  "parent_call_id",
  "cum_len",
  "digest",
  "response_id",
]);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const nullish = (v: unknown): v is null | undefined => v === null || v === undefined;
const stringOr = (v: unknown): v is string | null | undefined =>
  typeof v === "string" || nullish(v);
const intOr = (v: unknown): v is number | null | undefined =>
  nullish(v) || (typeof v === "number" && Number.isSafeInteger(v));

function everyItem(v: unknown, ok: (x: unknown) => boolean): v is unknown[] {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!ok(v[i])) return false;
  return true;
}

const isNumber = (x: unknown) => typeof x === "number";
/** An output item as `z.record(z.string(), z.unknown())` passes it (no own `__proto__` key). */
const isItem = (x: unknown) => isRecord(x) && !Object.hasOwn(x, "__proto__");

/** The entry the schema would make of `v`, or null when `v` is not plainly well-formed. */
export function fastTokenEntry(v: unknown): Entry | null {
  if (!isRecord(v) || Object.hasOwn(v, "__proto__")) return null;
  const { schema_version, rollout_id, model_call_id, model, output_items } = v;
  const { token_item_index, created_at, requested_model, has_tools, parent_call_id, cum_len } = v;
  const { digest, response_id } = v;
  if (
    schema_version !== undefined &&
    !(typeof schema_version === "number" && Number.isSafeInteger(schema_version))
  )
    return null;
  if (typeof rollout_id !== "string") return null;
  if (typeof model_call_id !== "string" || model_call_id.length === 0) return null;
  if (!stringOr(model) || !stringOr(requested_model) || !stringOr(parent_call_id)) return null;
  if (!stringOr(digest) || !stringOr(response_id)) return null;
  if (!everyItem(v.prompt_token_ids, isTokenId)) return null;
  if (!everyItem(v.generation_token_ids, isTokenId)) return null;
  if (!everyItem(v.generation_log_probs, isNumber)) return null;
  if (!nullish(output_items) && !everyItem(output_items, isItem)) return null;
  if (!intOr(token_item_index) || !intOr(cum_len) || (cum_len ?? 0) < 0) return null;
  if (!nullish(created_at) && typeof created_at !== "number") return null;
  if (!nullish(has_tools) && typeof has_tools !== "boolean") return null;
  const out: Record<string, unknown> = {};
  if (Object.hasOwn(v, "schema_version")) out.schema_version = schema_version;
  Object.assign(out, {
    rollout_id,
    model_call_id,
    model: model ?? "",
    prompt_token_ids: v.prompt_token_ids,
    generation_token_ids: v.generation_token_ids,
    generation_log_probs: v.generation_log_probs,
    routed_experts: v.routed_experts ?? null,
    output_items: output_items ? (output_items as object[]).map((x) => ({ ...x })) : [],
    token_item_index: token_item_index ?? null,
    created_at: created_at ?? 0,
    requested_model: requested_model ?? "",
    has_tools: has_tools ?? null,
    parent_call_id: parent_call_id ?? null,
    cum_len: cum_len ?? null,
    digest: digest ?? null,
    response_id: response_id ?? null,
  });
  for (const k of Object.keys(v)) if (!KNOWN.has(k)) out[k] = v[k];
  return out as Entry;
}
