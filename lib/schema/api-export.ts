// The contract of a run's export (GET /api/runs/{run}/export): one row per rollout the table's
// filters select, as JSON; the CSV has the same columns in this order.
import { z } from "zod";
import { severityStateSchema } from "./api-runs";

const int = z.int();
const nullableNumber = z.number().nullable();

/** One row of GET /api/runs/{run}/export?format=json; the CSV has the same columns in this order. */
export const exportRowSchema = z.strictObject({
  rollout_id: z.string(),
  step: int.nullable(),
  reward: nullableNumber,
  mask_sample: z.boolean(),
  severity: severityStateSchema,
  /** Reason codes (mask reasons and warnings), space-separated. */
  severity_reasons: z.string(),
  /** Space-separated. */
  mask_reasons: z.string(),
  error: z.string().nullable(),
  n_calls: z.number(),
  chains: nullableNumber,
  roots: nullableNumber,
  delivered_fraction: nullableNumber,
  /** Routed experts that fell back on the main chain (docs/experts.md); empty without routes. */
  expert_fallback_fraction: nullableNumber,
  side_calls: z.number(),
  quarantined: z.number(),
  failed_calls: int,
  lost_calls: int,
  /** `code:count` pairs, space-separated. */
  status_codes: z.string(),
  cut_short: z.string().nullable(),
  bytes: int,
  source: z.enum(["store", "record"]),
});

export const exportRowsSchema = z.array(exportRowSchema);

export type ExportRow = z.infer<typeof exportRowSchema>;
