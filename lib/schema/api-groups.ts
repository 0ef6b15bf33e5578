// The JSON bodies of the record-field and GRPO-group routes: the scalar fields a run's rollout
// records carry (and their values for chosen rollouts), and the rollouts grouped by a field (a
// GRPO group: one task's rollouts in one step) with rewards, spread and each rollout's advantage.
import { z } from "zod";

const int = z.int();

/** A scalar a record holds at a field path; null where the record has none there. */
export const fieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type FieldValue = z.infer<typeof fieldValueSchema>;

export const recordFieldSchema = z.strictObject({
  /** Dotted path: `scenario`, `agent_ref.name`, `responses_create_params.metadata.x`. */
  path: z.string(),
  types: z.array(z.enum(["string", "number", "boolean"])),
  /** How many records hold a scalar there. */
  records: int,
});
export type RecordField = z.infer<typeof recordFieldSchema>;

/** GET /api/runs/{run}/record-fields[?columns=a,b&id=…&id=…]. */
export const recordFieldsSchema = z.strictObject({
  fields: z.array(recordFieldSchema),
  /** rollout id -> path -> value, for the ids asked that have a record. */
  values: z.record(z.string(), z.record(z.string(), fieldValueSchema)),
});
export type RecordFields = z.infer<typeof recordFieldsSchema>;

export const baselineKindSchema = z.enum(["leave_one_out", "group_mean"]);
export type BaselineKind = z.infer<typeof baselineKindSchema>;

export const groupMemberSchema = z.strictObject({
  rollout_id: z.string(),
  reward: z.number().nullable(),
  /** Null for a rollout that does not vote: no reward, or its record says `mask_sample: true`. */
  advantage: z.number().nullable(),
  masked: z.boolean(),
  /**
   * The advantage the trainer logged for the rollout's sample (train_data_step{N}.jsonl
   * `advantages`, at its first loss token); null where none is logged or joined to it.
   */
  logged_advantage: z.number().nullable(),
});

export const rolloutGroupSchema = z.strictObject({
  /** The grouping field's value (the task index by default). */
  key: fieldValueSchema,
  step: int.nullable(),
  n: int,
  /** Rewards of the members that vote, in member order. */
  rewards: z.array(z.number()),
  mean: z.number().nullable(),
  /** Sample standard deviation (n − 1) of `rewards`; 0 for fewer than two. */
  std: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  /**
   * Every voting reward exactly equal (or fewer than two): every advantage is 0. False when no
   * member's record carries a reward (not known).
   */
  no_signal: z.boolean(),
  members: z.array(groupMemberSchema),
});
export type RolloutGroup = z.infer<typeof rolloutGroupSchema>;

export const stepSignalSchema = z.strictObject({
  step: int.nullable(),
  groups: int,
  no_signal: int,
  /** Groups whose records carry no reward: whether they carry a signal is not known. */
  no_rewards: int,
});
export type StepSignal = z.infer<typeof stepSignalSchema>;

/** NeMo-RL's advantage options: the baseline and whether the std divides. */
export const advantageRuleSchema = z.strictObject({
  baseline: baselineKindSchema,
  normalize: z.boolean(),
});
export type AdvantageRule = z.infer<typeof advantageRuleSchema>;

/** The trainer's logged advantages against the page's rule (lib/runs/logged-advantages). */
export const loggedAdvantagesSchema = z.strictObject({
  /** The run's trained samples with a logged advantage that joined a rollout, and their files. */
  samples: int,
  files: z.array(z.string()),
  /**
   * This page's members with a logged advantage; of those, the ones the page's rule also gives one
   * (a reward, not masked), and the ones it gives another.
   */
  members: int,
  compared: int,
  differ: int,
  /** Agreement: within `tolerance` × max(1, |logged|). */
  tolerance: z.number(),
  /** The option sets that reproduce every logged value on this page; [] when none does. */
  fits: z.array(advantageRuleSchema),
});
export type LoggedAdvantages = z.infer<typeof loggedAdvantagesSchema>;

/** GET /api/runs/{run}/groups?by=&baseline=&normalize=&step=&signal=&offset=&limit=. */
export const runGroupsSchema = z.strictObject({
  /** The field grouped by; null when none was asked and the records carry no task index. */
  by: z.string().nullable(),
  /** The fields one may group by (the records' scalar fields). */
  fields: z.array(z.string()),
  definition: z.strictObject({
    baseline: baselineKindSchema,
    normalize: z.boolean(),
    epsilon: z.number(),
    source: z.string(),
  }),
  /** Groups matching `step` and `signal`; `groups` is the window [offset, offset + limit). */
  total: int,
  offset: int,
  groups: z.array(rolloutGroupSchema),
  /** Every group of the run, per step (filters do not apply). */
  per_step: z.array(stepSignalSchema),
  /** The most rollouts in one group: below 2, the run has no GRPO groups to speak of. */
  max_group_size: int,
  /** Records without a value for `by` (not in any group). */
  ungrouped: int,
  records: int,
  /** Null when the run's step files log no advantages (or it has none). */
  logged: loggedAdvantagesSchema.nullable(),
  /** Why the step files could not be read for the logged advantages; null when they could. */
  logged_error: z.string().nullable(),
});
export type RunGroups = z.infer<typeof runGroupsSchema>;
