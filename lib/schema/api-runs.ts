// The JSON bodies of the run routes: the runs list, a page of rollout summaries, a run's health
// and the JSON export's rows (the comparison's are in ./api-compare). One zod schema per body,
// snake_case on the wire; the server builds values of the inferred types, and route tests and the
// browser parse responses with these same schemas. Not the inspector's routes (./api-rollout).
import * as ledger from "./api-ledger";
import { healthNoteSchema } from "./api-health-notes";
import { z } from "zod";
import { textHitSchema, textSearchSchema } from "./api-search";
import { noLifecycle, rolloutLifecycleSchema } from "./api-run-lifecycle";
export * from "./api-run-lifecycle";

const int = z.int();
const nullableNumber = z.number().nullable();

export const profileSchema = z.enum(["seed", "gym-v1"]);
/** The builder's mask reasons (lib/builder/verdict.ts MaskReason); summaries fail to typecheck if one is missing. */
export const maskReasonSchema = z.enum([
  "capture_incomplete",
  "unresolved_retry",
  "all_side_calls",
  "build_error",
  "no_token_records",
  "multiple_roots",
  "multiple_chains",
]);

/**
 * A summary's mask reasons: the consumer's, plus `deleted` for a rollout Gym's store deleted with
 * nothing left to read (only its lock file), so filters and charts name it rather than guess.
 */
export const summaryMaskReasonSchema = z.enum([...maskReasonSchema.options, "deleted"]);

/** The severity model's classes (lib/severity): `pending` while a rollout's verdict is not known. */
export const severityStateSchema = z.enum([
  "trained",
  "trained_with_warnings",
  "masked",
  "pending",
]);

/** One reason of a rollout's severity: its code (lib/severity ReasonCode) and a few words. */
export const severityReasonSchema = z.strictObject({ code: z.string(), title: z.string() });

/** A failed model call's facts (lib/severity FailedCallFact): its 1-based number in the call timeline. */
export const failedCallFactSchema = z.strictObject({
  position: int,
  status_code: int.nullable(),
  error_category: z.string().nullable(),
  error_type: z.string().nullable(),
  location: z.string().nullable(),
  message: z.string().nullable(),
});

/** Rollouts per severity class, every class present. */
export const severityCountsSchema = z.strictObject({
  trained: int,
  trained_with_warnings: int,
  masked: int,
  pending: int,
});

export const indexProgressSchema = z.strictObject({
  done: int,
  total: int,
  running: z.boolean(),
  error: z.string().nullable(),
  last_ms: nullableNumber, // wall time of the last completed refresh, ms
  workers: int, // worker threads used by the last refresh
  in_workers: int, // and the rollouts they summarised
  from_records: int, // rows standing in from records for store rollouts still to summarise
  replacing: int, // rows kept from before for rollouts being summarised again, still to replace
  records_read: nullableNumber, // fraction of rollouts.jsonl read while a first index reads it
});

/** One rollout's row in run views. Counts read from a record (capture off) may be any number. */
export const rolloutSummarySchema = z.strictObject({
  rollout_id: z.string(),
  /** Where the verdict comes from: the token store, or the record alone (capture off or consumed). */
  source: z.enum(["store", "record"]),
  profile: profileSchema.nullable(),
  mask_sample: z.boolean(),
  mask_reasons: z.array(summaryMaskReasonSchema),
  error: z.string().nullable(),
  metrics: z.record(z.string(), z.unknown()),
  n_calls: z.number(),
  chains: nullableNumber,
  roots: nullableNumber,
  delivered_fraction: nullableNumber,
  quarantined: z.number(),
  side_calls: z.number(),
  side_call_reasons: z.strictObject({ pattern: int, self_calibration: int }),
  /** Requested model -> side calls self-calibration set aside (the run page's pattern hint). */
  self_calibrated_models: z.record(z.string(), int),
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
  /** Model calls answered (HTTP < 400, or no status) that left no token entry: lost to the capture. */
  lost_calls: int,
  /** The last call of the rollout's timeline failed (the agent stopped after it): its status and error. */
  cut_short: z.string().nullable(),
  /** The same failed call's facts, for sentences ("call 2 got HTTP 422 `extra_forbidden` at …"). */
  cut_short_call: failedCallFactSchema.nullable(),
  /** The model of the main chain (lib/severity mainChainModel); null when no call names one. */
  main_model: z.string().nullable(),
  /**
   * Token ids outside 0 … 2^31−1 (outside every vocabulary) in the entries the profile's consumer
   * built from (under gym-v1, those Gym's freeze reads, which keep any integer); a call's inherited
   * prefix is counted once. Null when the ids were not read (a record alone).
   */
  oov_tokens: int.nullable(),
  /** Main chain's fallback and missing routes over expected, and the counts (docs/experts.md). */
  expert_fallback_fraction: nullableNumber.default(null),
  expert_routes: z.strictObject({ expected: int, fallback: int }).nullable().default(null),
  /** The store's lifecycle: frozen or open, a retired tombstone, deleted, and attempts. */
  lifecycle: rolloutLifecycleSchema.default(noLifecycle),
  /** Any token-capture evidence: store files or the record's `_ng_token_capture`. */
  has_capture: z.boolean(),
  /**
   * The severity class and its reasons. A summary is a function of its own files; the run-level
   * warnings (another model than the run's policy as main chain, no capture in a capturing run)
   * are added by lib/health when the run's summaries are served.
   */
  severity: severityStateSchema,
  severity_reasons: z.array(severityReasonSchema),
  reward: nullableNumber,
  step: int.nullable(),
  bytes: int,
  /** Null when no token store was read (a record alone, a deleted rollout). */
  ledger: ledger.rolloutLedgerSchema.nullable().default(null),
  splice: ledger.spliceFactsSchema.nullable().default(null),
});

/** GET /api/runs/{run}/rollouts: one window of the filtered, sorted rows. */
export const rolloutPageSchema = z.strictObject({
  total: int,
  all: int,
  offset: int,
  rollouts: z.array(rolloutSummarySchema),
  progress: indexProgressSchema,
  /** The run's policy model: the main-chain model most of its rollouts train on. */
  policy_model: z.string().nullable(),
  /** With `text=`: each listed rollout's best match, by rollout id. */
  text_hits: z.record(z.string(), textHitSchema).optional(),
  text_search: textSearchSchema,
});

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
  /** NeMo-RL's `r3/routed_experts_fallback_token_route_fraction` of the step (docs/experts.md). */
  expert_fallback_fraction: nullableNumber.default(null),
});

export const alertKindSchema = z.enum([
  "cut_short",
  "other_model_main",
  "masked_fraction",
  "dangling_intents",
  "unreadable",
  "newer_schema",
  "profile_disagreement",
  "unreadable_records",
  "expert_fallback",
]);

/** Alerts about the store's lifecycle (lib/health/alerts/lifecycle), beside lib/health's own. */
export const lifecycleAlertKindSchema = z.enum(["outside_token_ids"]);

/** The index's alert (lib/health/alerts/records): a built verdict the record's contradicts. */
export const recordAlertKindSchema = z.enum(["record_disagrees"]);
/**
 * The trainer truth check's alerts (lib/health/alerts/truth): trained samples that differ, and the
 * trainer's train/inference mismatch (lib/health/alerts/mismatch).
 */
export const trainerAlertKindSchema = z.enum(["trainer_truth", "trainer_mismatch"]);

export const alertSchema = z.strictObject({
  kind: z.enum([
    ...alertKindSchema.options,
    ...lifecycleAlertKindSchema.options,
    ...recordAlertKindSchema.options,
    ...trainerAlertKindSchema.options,
    ...ledger.spliceAlertKindSchema.options,
    "manifest", // lib/health/alerts/files: a run.json that could not be used
  ]),
  severity: z.enum(["error", "warning"]),
  /** The severity class of the rollouts the alert names: its colour on every page. */
  verdict: z.enum(["trained_with_warnings", "masked"]).nullable(),
  count: int,
  message: z.string(),
  rollout_ids: z.array(z.string()),
  /** The rollouts table's query that lists exactly these rollouts (`reason=out_of_vocabulary`). */
  table_query: z.string().optional(),
  at: ledger.rerenderedAtSchema.optional(), // the first named rollout's token where it goes wrong
});

/** Aggregates over a run's summaries (lib/health). */
export const healthReportSchema = z.strictObject({
  rollouts: int,
  from_store: int,
  masked: int,
  masked_fraction: z.number(),
  /** Rollouts per severity class; `pending` counts rollouts the index has not summarised yet. */
  severity: severityCountsSchema,
  /** Reasons of trained-with-warnings and masked rollouts, by reason title. */
  severity_reasons: z.array(countSchema),
  /** The run's policy model (lib/severity runPolicyModel over the summaries' main_model). */
  policy_model: z.string().nullable(),
  mask_reasons: z.array(countSchema),
  delivered_fraction: z.array(countSchema),
  chains_per_rollout: z.array(countSchema),
  roots_per_rollout: z.array(countSchema),
  calls_per_rollout: z.array(countSchema),
  quarantined_calls: z.number(),
  rollouts_with_quarantine: int,
  /** Rollouts with capture evidence (a token store, or capture metrics in the record). */
  rollouts_with_capture: int,
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
  /**
   * The run's one training curve: reward per step from the trainer's logs (`train/reward`, else
   * `reward`), else metrics.jsonl's `reward`, downsampled with every gap kept; `tag` and `sources`
   * name where it came from; null without a reward series.
   */
  curve: z
    .strictObject({
      tag: z.string(),
      sources: z.array(z.string()),
      steps: int,
      mean: nullableNumber,
      points: z.array(z.strictObject({ step: int, reward: nullableNumber })),
    })
    .nullable(),
  /** The curve's points again (`curve.points`, [] without one), as scripts read them. */
  metrics: z.array(z.strictObject({ step: int, reward: nullableNumber })),
  metrics_unreadable: int,
  skipped_files: z.array(z.string()),
  /** Lines under the health worth knowing that need no fixing (lib/health/notes). */
  notes: z.array(healthNoteSchema),
});

export type SeverityCounts = z.infer<typeof severityCountsSchema>;
export type FailedCallFactWire = z.infer<typeof failedCallFactSchema>;
export type IndexProgress = z.infer<typeof indexProgressSchema>;
export type RolloutSummary = z.infer<typeof rolloutSummarySchema>;
export type RolloutPage = z.infer<typeof rolloutPageSchema>;
export type Count = z.infer<typeof countSchema>;
export type StepPoint = z.infer<typeof stepPointSchema>;
export type AlertKind = z.infer<typeof alertKindSchema>;
export type LifecycleAlertKind = z.infer<typeof lifecycleAlertKindSchema>;
export type Alert = z.infer<typeof alertSchema>;
export type HealthReport = z.infer<typeof healthReportSchema>;
export type RunHealth = z.infer<typeof runHealthSchema>;
