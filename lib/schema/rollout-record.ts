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
