// The wire contract of `GET /api/runs/{run}/trainer/truth`: whether the trainer trained on what the
// capture delivered (NeMo-RL's train_data_step{N}.jsonl joined to the run's rollouts) and the
// train/inference mismatch per sample and step. Strict objects, snake_case; the browser parses it.
import { z } from "zod";

const count = z.int().nonnegative();
const ratio = z.number().nullable();

export const truthClassSchema = z.enum([
  "identical",
  "mask_differs",
  "tokens_differ",
  "no_capture",
]);

const classCountsSchema = z.strictObject({
  samples: count,
  identical: count,
  mask_differs: count,
  tokens_differ: count,
  no_capture: count,
});

/** Decoded text either side of the first differing position: shared before, then each side's own. */
export const truthContextSchema = z.strictObject({
  before: z.string(),
  trainer: z.string(),
  capture: z.string(),
});

export const truthSampleSchema = z.strictObject({
  /** The N of train_data_step{N}.jsonl, and the 0-based step of the records it joined. */
  step: count,
  record_step: count,
  idx: count.nullable(),
  line: count,
  rollout_id: z.string().nullable(),
  class: truthClassSchema,
  first_diff: count.nullable(),
  mask_diffs: count,
  context: truthContextSchema.nullable(),
  input_length: count,
  reward: ratio,
  /** The sample's sequence multiplicative probability error, its masked tokens, its worst token. */
  mult_prob_error: ratio,
  masked_tokens: count,
  /** Tokens the trainer's loss mask (and sample mask) keep; null without token_loss_mask. */
  loss_tokens: count.nullable(),
  /** Of those, the ones whose logged advantage is not 0; null without `advantages`. */
  advantage_tokens: count.nullable(),
  /** The sample's logged advantage (its first loss token's); null without `advantages`. */
  advantage: ratio,
  max_token_error: ratio,
  max_token_pos: count.nullable(),
});

/**
 * A trained sample whose token ids or loss mask differ from the rollout's main chain: its file's
 * N (`train_data_step{N}.jsonl`), the records' step it joined, its 1-based line, and where.
 */
export const trainerDiffersSchema = z.strictObject({
  step: count,
  record_step: count,
  line: count,
  class: z.enum(["tokens_differ", "mask_differs"]),
  /** The first chain position (0-based) whose token, or loss mask, differs. */
  first_diff: count.nullable(),
  mask_diffs: count,
  /** The trainer's masks keep none of the sample's tokens in the loss (sample_loss_mask 0, say). */
  left_out: z.boolean(),
});

export const loggedCheckSchema = z.enum(["equal", "differs", "not_logged", "not_computed"]);

export const truthStepSchema = classCountsSchema.extend({
  step: count,
  file: z.string(),
  /** NeMo-RL's `token_mult_prob_error` of the step, recomputed from the file. */
  token_mult_prob_error: ratio,
  masked_tokens: count,
  /** What the trainer logged for step N (`train/token_mult_prob_error`), and how it compares. */
  logged_token_mult_prob_error: ratio,
  logged_check: loggedCheckSchema,
});

/** The recomputed per-step values against the trainer's logged scalar; null when none is logged. */
export const loggedMismatchSchema = z.strictObject({
  tag: z.string(),
  /** The trainer log directory the scalar came from, relative to the run directory. */
  trainer_logs: z.string(),
  relative_tolerance: z.number(),
  equal: count,
  differs: count,
  not_logged: count,
  not_computed: count,
  /** Logged steps without a step file. */
  only_logged: count,
});

export const trainerTruthSchema = z.strictObject({
  run_id: z.string(),
  capture: z.enum(["on", "off"]).nullable(),
  /** The NeMo-RL log directory read, relative to the run directory; null when the run has none. */
  log_dir: z.string().nullable(),
  join_rule: z.string(),
  totals: classCountsSchema.extend({ token_mult_prob_error: ratio }),
  steps: z.array(truthStepSchema),
  logged: loggedMismatchSchema.nullable(),
  /** Samples with a difference first, then by step and idx; at most `limit` of `samples_total`. */
  samples: z.array(truthSampleSchema),
  samples_total: count,
  issues: z.array(
    z.strictObject({ file: z.string(), line: count.nullable(), message: z.string() }),
  ),
});

export type TruthClass = z.infer<typeof truthClassSchema>;
export type TruthSample = z.infer<typeof truthSampleSchema>;
export type TrainerDiffers = z.infer<typeof trainerDiffersSchema>;
export type TruthStep = z.infer<typeof truthStepSchema>;
export type LoggedCheck = z.infer<typeof loggedCheckSchema>;
export type TrainerTruth = z.infer<typeof trainerTruthSchema>;

/** `GET …/rollouts/{rollout}/trainer-mismatch`'s query: strict, so a misspelt parameter is a 400. */
export const MISMATCH_MAX_LIMIT = 20000;
export const rolloutMismatchQuerySchema = z.strictObject({
  chain: z.string().min(1).default("main"),
  offset: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().min(0).max(MISMATCH_MAX_LIMIT).default(MISMATCH_MAX_LIMIT),
  profile: z.string().optional(),
});

/**
 * The train/inference mismatch over a rollout's chain positions, from the trained sample the truth
 * check joined to it: exp(|generation − prev|) where the trainer's mask is 1 (position 0 dropped),
 * null elsewhere. Positions after the first differing token (tokens_differ) are not the chain's.
 */
export const rolloutMismatchSchema = z.strictObject({
  run_id: z.string(),
  rollout_id: z.string(),
  chain: z.string(),
  /** The run has NeMo-RL step files (`train_data_step*.jsonl`): without them the view says nothing. */
  step_logs: z.boolean(),
  /**
   * The joined sample whose token ids (first) or loss mask differ from the main chain built with
   * the run's profile, whatever chain was asked for: the trainer's evidence for the verdict.
   */
  differs: trainerDiffersSchema.nullable(),
  /** False with a one-line `reason` when no joined sample covers this chain. */
  available: z.boolean(),
  reason: z.string().nullable(),
  sample: z
    .strictObject({
      file: z.string(),
      line: count,
      step: count,
      idx: count.nullable(),
      class: truthClassSchema,
      input_length: count,
      masked_tokens: count,
      mult_prob_error: ratio,
      max_token_error: ratio,
      max_token_pos: count.nullable(),
    })
    .nullable(),
  /** Chain positions the sample's tokens line up with (0 … total − 1); the window starts at offset. */
  total: count,
  offset: count,
  errors: z.array(z.number().nullable()),
});

export type RolloutMismatchQuery = z.infer<typeof rolloutMismatchQuerySchema>;
export type RolloutMismatch = z.infer<typeof rolloutMismatchSchema>;

/** Where each histogram bin of per-sample mismatch starts; the last bin is open above. */
export const MISMATCH_BIN_EDGES = [1, 1.001, 1.003, 1.01, 1.03, 1.1, 1.3, 2, 5, 20] as const;

/**
 * `GET /api/runs/{run}/trainer/mismatch-distribution`: the run's per-sample train/inference
 * mismatch (NeMo-RL's sequence multiplicative probability error, the mean of exp(|gen − prev|) over a
 * sample's masked tokens) over every train_data_step{N}.jsonl, as quantiles and a histogram.
 */
export const mismatchDistributionSchema = z.strictObject({
  run_id: z.string(),
  capture: z.enum(["on", "off"]).nullable(),
  /** The NeMo-RL log directory read, relative to the run directory; null when the run has none. */
  log_dir: z.string().nullable(),
  step_files: count,
  /** Samples with at least one masked token (the others have no value and are counted apart). */
  samples: count,
  samples_without_masked_tokens: count,
  /** The run's token_mult_prob_error: every masked token of every step file weighs the same. */
  token_mult_prob_error: ratio,
  /** Of the per-sample values, linear interpolation between order statistics. */
  quantiles: z.strictObject({ p10: ratio, p50: ratio, p90: ratio, p99: ratio, max: ratio }),
  bins: z.array(z.strictObject({ from: z.number(), to: z.number().nullable(), count })),
  issues: z.array(z.string()),
});

export type MismatchDistribution = z.infer<typeof mismatchDistributionSchema>;
