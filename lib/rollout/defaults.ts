// What a summary says of the store when no token file was read (a record-only rollout, a deleted
// one, a test's clean default): no torn tail, intents, failures, models or out-of-range ids. One
// place, so a new store fact gets its "nothing read" value once. Fresh objects on every call.
import type { RolloutSummary } from "@/lib/schema";

export function noStoreFacts() {
  return {
    side_call_reasons: { pattern: 0, self_calibration: 0 },
    self_calibrated_models: {},
    torn_tail: false,
    dangling_intents: 0,
    unreadable: false,
    newer_schema: false,
    other_profile_disagrees: false,
    status_codes: {},
    error_categories: {},
    failed_calls: 0,
    lost_calls: 0,
    cut_short: null,
    cut_short_call: null,
    main_model: null,
    oov_tokens: null,
    ledger: null,
    splice: null,
    expert_fallback_fraction: null,
    expert_routes: null,
  } satisfies Partial<RolloutSummary>;
}
