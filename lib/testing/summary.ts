// A typed test builder for rollout summaries: a clean trained rollout, parsed by the contract's
// schema, that each test overrides where it differs.
import { rolloutSummarySchema, type RolloutSummary } from "@/lib/schema/api-runs";

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
    side_call_reasons: { pattern: 0, self_calibration: 0 },
    fallbacks: {},
    torn_tail: false,
    dangling_intents: 0,
    unreadable: false,
    newer_schema: false,
    other_profile_disagrees: false,
    status_codes: {},
    error_categories: {},
    failed_calls: 0,
    cut_short: null,
    cut_short_call: null,
    main_model: null,
    oov_tokens: null,
    has_capture: true,
    severity: "trained",
    severity_reasons: [],
    reward: 1,
    step: null,
    bytes: 10,
    ...over,
  });
}
