// A typed test builder for rollout summaries: a clean trained rollout, parsed by the contract's
// schema, that each test overrides where it differs.
import { rolloutSummarySchema, type RolloutSummary } from "@/lib/schema/api-runs";
import { noStoreFacts } from "@/lib/rollout/defaults";
import type { MadeRow, SummaryRow } from "@/lib/index/columns";

export function summaryOf(over: Partial<RolloutSummary> = {}): RolloutSummary {
  return rolloutSummarySchema.parse({
    rollout_id: "0-0",
    source: "store",
    profile: "seed",
    mask_sample: false,
    mask_reasons: [],
    error: null,
    metrics: {},
    n_calls: 2,
    chains: 1,
    roots: 1,
    delivered_fraction: 1,
    quarantined: 0,
    side_calls: 0,
    ...noStoreFacts(),
    fallbacks: {},
    has_capture: true,
    severity: "trained",
    severity_reasons: [],
    reward: 1,
    step: null,
    bytes: 10,
    ...over,
  });
}

/** A write's rows as summaries: a run with a store writes no rows made from records as read. */
export function summaryRowsOf(rows: Array<SummaryRow | MadeRow>): SummaryRow[] {
  return rows.map((r) => {
    if ("made" in r) throw new Error(`a row made from ${r.id}'s record as read, in a store run`);
    return r;
  });
}
