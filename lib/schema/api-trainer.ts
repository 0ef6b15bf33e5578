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
  max_token_error: ratio,
  max_token_pos: count.nullable(),
});

export const truthStepSchema = classCountsSchema.extend({
  step: count,
  file: z.string(),
  /** NeMo-RL's `token_mult_prob_error` of the step, recomputed from the file. */
  token_mult_prob_error: ratio,
  masked_tokens: count,
});

export const trainerTruthSchema = z.strictObject({
  run_id: z.string(),
  capture: z.enum(["on", "off"]).nullable(),
  /** The NeMo-RL log directory read, relative to the run directory; null when the run has none. */
  log_dir: z.string().nullable(),
  join_rule: z.string(),
  totals: classCountsSchema.extend({ token_mult_prob_error: ratio }),
  steps: z.array(truthStepSchema),
  /** Samples with a difference first, then by step and idx; at most `limit` of `samples_total`. */
  samples: z.array(truthSampleSchema),
  samples_total: count,
  issues: z.array(
    z.strictObject({ file: z.string(), line: count.nullable(), message: z.string() }),
  ),
});

export type TruthClass = z.infer<typeof truthClassSchema>;
export type TruthSample = z.infer<typeof truthSampleSchema>;
export type TruthStep = z.infer<typeof truthStepSchema>;
export type TrainerTruth = z.infer<typeof trainerTruthSchema>;
