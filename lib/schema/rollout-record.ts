// One line of a run's `rollouts.jsonl`: a rollout record as Gym's rollout collection writes it
// (docs/capture-format.md §10.2). Only the fields the dashboard reads are typed; the rest is kept.
import { z } from "zod";

const nullableNumber = z
  .number()
  .nullish()
  .transform((v) => v ?? null);

export const rolloutRecordSchema = z.looseObject({
  reward: nullableNumber,
  reward_components: z.record(z.string(), z.number()).optional(),
  step: z
    .int()
    .nullish()
    .transform((v) => v ?? null),
  _ng_task_index: z
    .int()
    .nullish()
    .transform((v) => v ?? null),
  _ng_rollout_index: z
    .int()
    .nullish()
    .transform((v) => v ?? null),
  _ng_attempt_index: z
    .int()
    .nullish()
    .transform((v) => v ?? null),
  _ng_rollout_id: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  agent_ref: z
    .looseObject({ name: z.string().optional() })
    .nullish()
    .transform((v) => v ?? null),
  response: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((v) => v ?? null),
  mask_sample: z
    .boolean()
    .nullish()
    .transform((v) => v ?? null),
  _ng_token_capture: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((v) => v ?? null),
  ng_model_call_capture: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((v) => v ?? null),
});

export type RolloutRecord = z.infer<typeof rolloutRecordSchema>;

/**
 * The rollout id Gym derives for a record (§2.1): explicit `_ng_rollout_id`, else
 * `<task>-<rollout>` with `-a<n>` for attempts after the first. Null when neither is present.
 */
export function rolloutIdOf(record: RolloutRecord): string | null {
  if (record._ng_rollout_id) return record._ng_rollout_id;
  if (record._ng_task_index === null || record._ng_rollout_index === null) return null;
  const base = `${record._ng_task_index}-${record._ng_rollout_index}`;
  const attempt = record._ng_attempt_index ?? 0;
  return attempt > 0 ? `${base}-a${attempt}` : base;
}

/** The typed fields in rolloutRecordSchema's order: the order its output lists them in. */
const NULLED = [
  "reward",
  "reward_components",
  "step",
  "_ng_task_index",
  "_ng_rollout_index",
  "_ng_attempt_index",
  "_ng_rollout_id",
  "agent_ref",
  "response",
  "mask_sample",
  "_ng_token_capture",
  "ng_model_call_capture",
] as const;
type Typed = (typeof NULLED)[number];
const TYPED = new Set<string>(NULLED);

/** An object zod copies key for key: an own `__proto__` key (JSON.parse makes one) is zod's to judge. */
const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !Object.hasOwn(v, "__proto__");
const isInt = (v: unknown) => Number.isSafeInteger(v);
const isNum = (v: unknown) => typeof v === "number" && Number.isFinite(v);

/** Whether `v` is a value of field `k` that rolloutRecordSchema passes through unchanged. */
function fits(k: Typed, v: unknown): boolean {
  if (v === undefined) return true;
  if (v === null) return k !== "reward_components"; // optional, not nullable
  switch (k) {
    case "reward":
      return isNum(v);
    case "step":
    case "_ng_task_index":
    case "_ng_rollout_index":
    case "_ng_attempt_index":
      return isInt(v);
    case "_ng_rollout_id":
      return typeof v === "string";
    case "mask_sample":
      return typeof v === "boolean";
    case "reward_components":
      return isPlain(v) && Object.values(v).every(isNum);
    case "agent_ref": {
      // zod lists a loose object's known key first: only an object whose `name` is first (or absent)
      // comes out unchanged.
      if (!isPlain(v)) return false;
      const keys = Object.keys(v);
      const at = keys.indexOf("name");
      return at <= 0 && (at < 0 || typeof v.name === "string");
    }
    default:
      return isPlain(v);
  }
}

/**
 * rolloutRecordSchema.safeParse without zod for the records every writer writes (a hand check of
 * the typed fields, the output built as zod builds it: typed fields first, in the schema's order,
 * absent ones null, then the rest as they came); anything the check is unsure of is zod's to judge,
 * so errors and odd shapes read exactly as before. A million records: ~1 s of zod saved.
 */
export function parseRolloutRecord(
  value: unknown,
): { success: true; data: RolloutRecord } | { success: false; error: z.ZodError } {
  if (!isPlain(value)) return rolloutRecordSchema.safeParse(value);
  const out: Record<string, unknown> = {};
  for (const k of NULLED) {
    const v = value[k];
    if (!fits(k, v)) return rolloutRecordSchema.safeParse(value);
    if (k === "reward_components") {
      if (v !== undefined) out[k] = { ...(v as object) };
    } else out[k] = v ?? null;
  }
  for (const k in value) if (!TYPED.has(k)) out[k] = value[k];
  return { success: true, data: out as RolloutRecord };
}
