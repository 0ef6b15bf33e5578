// The JSON bodies of the run routes: the runs list, a page of rollout summaries, a run's health
// and the JSON export's rows (the comparison's are in ./api-compare). One zod schema per body,
// snake_case on the wire; the server builds values of the inferred types, and route tests and the
// browser parse responses with these same schemas. Not the inspector's routes (./api-rollout).
import { z } from "zod";

const int = z.int();
const nullableNumber = z.number().nullable();

export const profileSchema = z.enum(["seed", "gym-v1"]);
/** The builder's mask reasons (lib/builder/verdict.ts MaskReason); summaries fail to typecheck if one is missing. */
export const maskReasonSchema = z.enum(["capture_incomplete", "unresolved_retry", "all_side_calls", "build_error", "no_token_records", "multiple_roots", "multiple_chains"]);

export const indexProgressSchema = z.strictObject({
  done: int,
  total: int,
  running: z.boolean(),
  error: z.string().nullable(),
  /** Wall time of the last completed refresh, ms. */
  last_ms: nullableNumber,
  /** Worker threads used by the last refresh, and rollouts they summarised. */
  workers: int,
  in_workers: int,
});

/** One rollout's row in run views. Counts read from a record (capture off) may be any number. */
export const rolloutSummarySchema = z.strictObject({
  rollout_id: z.string(),
  /** Where the verdict comes from: the token store, or the record alone (capture off or consumed). */
  source: z.enum(["store", "record"]),
  profile: profileSchema.nullable(),
  mask_sample: z.boolean(),
  mask_reasons: z.array(maskReasonSchema),
  error: z.string().nullable(),
  metrics: z.record(z.string(), z.unknown()),
  n_calls: z.number(),
  chains: nullableNumber,
  roots: nullableNumber,
  delivered_fraction: nullableNumber,
  quarantined: z.number(),
  side_calls: z.number(),
  side_call_reasons: z.strictObject({ pattern: int, self_calibration: int }),
  fallbacks: z.record(z.string(), z.number()),
  torn_tail: z.boolean(),
  dangling_intents: int,
  unreadable: z.boolean(),
  newer_schema: z.boolean(),
  other_profile_disagrees: z.boolean(),
  status_codes: z.record(z.string(), int),
  error_categories: z.record(z.string(), int),
  /** Model calls that failed (HTTP >= 400) and left no token entry. */
  failed_calls: int,
  /** A failed model call came after the last captured call while the record looks successful. */
  cut_short: z.string().nullable(),
  reward: nullableNumber,
  step: int.nullable(),
  bytes: int,
});

/** GET /api/runs/{run}/rollouts: one window of the filtered, sorted rows. */
export const rolloutPageSchema = z.strictObject({
  total: int,
  all: int,
  offset: int,
  rollouts: z.array(rolloutSummarySchema),
  progress: indexProgressSchema,
});

export const runOverviewSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  capture: z.enum(["on", "off"]).nullable(),
  builder_profile: z.enum(["seed", "gym-v1", "auto"]),
  manifest_error: z.string().nullable(),
  /** Rollouts with files in the token or model-call store (the rest come from records alone). */
  store_rollouts: int,
  has_rollout_records: z.boolean(),
  has_metrics: z.boolean(),
  rollouts: int,
  masked: int,
  masked_fraction: z.number(),
  reward_mean: nullableNumber,
  alerts: int,
  indexing: indexProgressSchema,
  /** Training steps in metrics.jsonl. */
  steps: int,
});

/** GET /api/runs. */
export const runListSchema = z.strictObject({ runs: z.array(runOverviewSchema) });

/** A count per key (a mask reason, a status code, a bucket), as health and compare list them. */
export const countSchema = z.strictObject({ key: z.string(), count: z.number() });

export const stepPointSchema = z.strictObject({
  step: int,
  rollouts: int,
  masked_fraction: z.number(),
  reward_mean: nullableNumber,
  calls_mean: z.number(),
  delivered_mean: nullableNumber,
  side_calls: z.number(),
  quarantined: z.number(),
  failed_calls: int,
});

export const alertKindSchema = z.enum(["cut_short", "masked_fraction", "dangling_intents", "unreadable", "newer_schema", "profile_disagreement", "unreadable_records"]);

export const alertSchema = z.strictObject({
  kind: alertKindSchema,
  severity: z.enum(["error", "warning"]),
  count: int,
  message: z.string(),
  rollout_ids: z.array(z.string()),
});

/** Aggregates over a run's summaries (lib/health). */
export const healthReportSchema = z.strictObject({
  rollouts: int,
  from_store: int,
  masked: int,
  masked_fraction: z.number(),
  mask_reasons: z.array(countSchema),
  delivered_fraction: z.array(countSchema),
  chains_per_rollout: z.array(countSchema),
  roots_per_rollout: z.array(countSchema),
  calls_per_rollout: z.array(countSchema),
  quarantined_calls: z.number(),
  rollouts_with_quarantine: int,
  side_calls_by_reason: z.array(countSchema),
  fallbacks_by_reason: z.array(countSchema),
  status_codes: z.array(countSchema),
  error_categories: z.array(countSchema),
  reward_mean: nullableNumber,
  per_step: z.array(stepPointSchema),
  alerts: z.array(alertSchema),
});

/** GET /api/runs/{run}/health. */
export const runHealthSchema = healthReportSchema.extend({
  run_id: z.string(),
  progress: indexProgressSchema,
  /** Reward per training step from metrics.jsonl, downsampled. */
  metrics: z.array(z.strictObject({ step: int, reward: nullableNumber })),
  metrics_unreadable: int,
  skipped_files: z.array(z.string()),
});

/** One row of GET /api/runs/{run}/export?format=json; the CSV has the same columns in this order. */
export const exportRowSchema = z.strictObject({
  rollout_id: z.string(),
  step: int.nullable(),
  reward: nullableNumber,
  mask_sample: z.boolean(),
  /** Space-separated. */
  mask_reasons: z.string(),
  error: z.string().nullable(),
  n_calls: z.number(),
  chains: nullableNumber,
  roots: nullableNumber,
  delivered_fraction: nullableNumber,
  side_calls: z.number(),
  quarantined: z.number(),
  failed_calls: int,
  /** `code:count` pairs, space-separated. */
  status_codes: z.string(),
  cut_short: z.string().nullable(),
  bytes: int,
  source: z.enum(["store", "record"]),
});

export const exportRowsSchema = z.array(exportRowSchema);

export type IndexProgress = z.infer<typeof indexProgressSchema>;
export type RolloutSummary = z.infer<typeof rolloutSummarySchema>;
export type RolloutPage = z.infer<typeof rolloutPageSchema>;
export type RunOverview = z.infer<typeof runOverviewSchema>;
export type RunList = z.infer<typeof runListSchema>;
export type Count = z.infer<typeof countSchema>;
export type StepPoint = z.infer<typeof stepPointSchema>;
export type AlertKind = z.infer<typeof alertKindSchema>;
export type Alert = z.infer<typeof alertSchema>;
export type HealthReport = z.infer<typeof healthReportSchema>;
export type RunHealth = z.infer<typeof runHealthSchema>;
export type ExportRow = z.infer<typeof exportRowSchema>;
