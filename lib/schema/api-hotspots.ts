// The wire contract of `GET /api/runs/{run}/trainer/hotspots`: where a run's train/inference
// mismatch concentrates, by token, position bucket, turn (call of the main chain) and MoE layer ×
// expert, over every trained sample of NeMo-RL's train_data_step{N}.jsonl (docs/hotspots.md).
// Strict, snake_case.
import { z } from "zod";

const count = z.int().nonnegative();

/** `?by=mean|tail` ranks the rows by mean error or by tail share; `limit` rows per table. */
export const hotspotsQuerySchema = z.strictObject({
  by: z.enum(["mean", "tail"]).default("mean"),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});

/** The worst occurrence of a row: its sample, its position, and the rollout the truth check joined. */
export const hotspotOccurrenceSchema = z.strictObject({
  step: count,
  file: z.string(),
  line: count,
  pos: count,
  /** The rollout whose main chain holds this position (null: no joined rollout, or past a drift). */
  rollout_id: z.string().nullable(),
});

/** A set of occurrences: how many, their mean error, tail share and worst. */
export const hotspotStatSchema = z.strictObject({
  count,
  /** Mean of exp(|gen − prev|) over the occurrences: NeMo-RL's token_mult_prob_error, per key. */
  mean: z.number(),
  /** Share of occurrences whose error exceeds `tail_error`. */
  tail_share: z.number(),
  max: z.number(),
  worst: hotspotOccurrenceSchema,
});

export const hotspotRowSchema = z.strictObject({
  ...hotspotStatSchema.shape,
  /**
   * Token id, position bucket (positions 2^key … 2^(key+1) − 1), turn (the 0-based index of the
   * call in the main chain) or MoE layer × expert (layer · 65,536 + expert).
   */
  key: count,
  /** The token's text as the run's tokenizer decodes it (null without one); the bucket's range. */
  text: z.string().nullable(),
  from: count.nullable(),
  to: count.nullable(),
  /** The MoE table's layer and expert (0-based); null in the other tables. */
  layer: count.nullable(),
  expert: count.nullable(),
});

/**
 * Mismatch by MoE layer × expert, over trained tokens whose call carries routed experts (the route
 * of the call that generated the token, its own row): a replayed token counts once under each
 * (layer, expert) its route names. Fallback tokens (replay fell back to the trainer's router) are
 * summed apart, to set beside the replayed ones.
 */
export const hotspotMoeSchema = z.strictObject({
  layers: count,
  topk: count,
  min_count: count,
  rows: z.array(hotspotRowSchema),
  distinct: count,
  replayed: hotspotStatSchema.nullable(),
  fallback: hotspotStatSchema.nullable(),
  /** Trained tokens with no route to read: no capture joined, past a drift, a call without routes. */
  no_route: count,
});

export const trainerHotspotsSchema = z.strictObject({
  run_id: z.string(),
  /** The NeMo-RL log directory read, relative to the run directory; null when the run has none. */
  log_dir: z.string().nullable(),
  step_files: count,
  samples: count,
  masked_tokens: count,
  /** Masked tokens whose error is NaN or infinite: in no mean, counted here. */
  non_finite: count,
  by: z.enum(["mean", "tail"]),
  tail_error: z.number(),
  /** Rows seen fewer times than this are not ranked (a single token's error is noise). */
  min_count: z.strictObject({ tokens: count, positions: count, turns: count }),
  tokens: z.array(hotspotRowSchema),
  positions: z.array(hotspotRowSchema),
  turns: z.array(hotspotRowSchema),
  /** How many distinct keys each table ranked from. */
  distinct: z.strictObject({ tokens: count, positions: count, turns: count }),
  /**
   * Trained tokens in no turn: the sample joins no capture, the position is past the first token
   * where the sample and the capture differ, or the capture generated no token there.
   */
  turn_unknown: count,
  /** Null when no joined rollout's main chain carries routed experts. */
  moe_layers: hotspotMoeSchema.nullable(),
  issues: z.array(z.string()),
});

export type HotspotsQuery = z.infer<typeof hotspotsQuerySchema>;
export type HotspotRow = z.infer<typeof hotspotRowSchema>;
export type HotspotStat = z.infer<typeof hotspotStatSchema>;
export type HotspotMoe = z.infer<typeof hotspotMoeSchema>;
export type TrainerHotspots = z.infer<typeof trainerHotspotsSchema>;
