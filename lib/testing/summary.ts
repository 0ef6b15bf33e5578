// A typed test builder for rollout summaries: a clean trained rollout, parsed by the contract's
// schema, that each test overrides where it differs.
import { rolloutSummarySchema, type RolloutSummary } from "@/lib/schema/api-runs";
import { noStoreFacts } from "@/lib/rollout/defaults";

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
