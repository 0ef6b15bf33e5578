// GET /api/runs: one line per run for the home page, which triages them (worst first, lib/health
// run-triage): its counts, its worst alert in words with the table link, and one mean reward from
// one named source.
import { z } from "zod";
import { alertSchema, indexProgressSchema, profileSchema, severityCountsSchema } from "./api-runs";

const int = z.int();
const nullableNumber = z.number().nullable();

export const runOverviewSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  capture: z.enum(["on", "off"]).nullable(),
  builder_profile: profileSchema, // `auto` resolved; profile_reason: why (lib/runs/profile)
  profile_reason: z.string(),
  manifest_error: z.string().nullable(),
  /** Rollouts with files in the token or model-call store (the rest come from records alone). */
  store_rollouts: int,
  has_rollout_records: z.boolean(),
  /** A token or model-call store is there (empty or not): without one and records, logs alone. */
  has_store: z.boolean(),
  has_metrics: z.boolean(),
  rollouts: int,
  masked: int,
  masked_fraction: z.number(),
  /** Rollouts per severity class (pending: not summarised yet). */
  severity: severityCountsSchema,
  /** The mean reward over the run's rollout records (null without any). */
  reward_mean: nullableNumber,
  /**
   * The one mean reward the home page shows, and where it is from: the training curve's mean over
   * its finite steps where the run has one, else the records' mean (`reward_mean`).
   */
  reward: z.strictObject({
    mean: nullableNumber,
    source: z.enum(["training curve", "records"]).nullable(),
  }),
  alerts: int,
  /** The run's worst alert (errors first, then those naming masked rollouts), its words and link. */
  worst_alert: alertSchema
    .pick({ kind: true, severity: true, verdict: true, count: true, message: true })
    .extend({ table_query: z.string().optional() })
    .nullable(),
  indexing: indexProgressSchema,
  /** Training steps in metrics.jsonl. */
  steps: int,
});

/** GET /api/runs. */
export const runListSchema = z.strictObject({ runs: z.array(runOverviewSchema) });

export type RunOverview = z.infer<typeof runOverviewSchema>;
export type RunList = z.infer<typeof runListSchema>;
