// The rollout view's facts as the severity model takes them (lib/severity): the consumer's verdict,
// the record's own mask_sample, the build's shape, failed calls in the timeline, the main chain's
// model against the run's policy, the store's tombstone and what it says is missing.
// Maps facts only; classifying and the sentences are lib/severity's.
import type { FailedCall, RolloutView } from "@/lib/schema";
import {
  classifySeverity,
  isFailedExchange,
  type FailedCallFact,
  type OutsideIdFact,
  type SeverityInput,
  type SeverityResult,
} from "@/lib/severity";

function failedFact(f: FailedCall): FailedCallFact {
  const { position, status_code, error_category, error_type, location, message } = f;
  return { position, status_code, error_category, error_type, location, message };
}

export function severityInputOf(view: RolloutView): SeverityInput {
  const v = view.verdict;
  // seed reads only the `.tokens.incomplete` marker; gym-v1 also counts intents and the state flag.
  const gym = view.profile === "gym-v1";
  return {
    mask_sample: v.mask_sample,
    mask_reasons: v.mask_reasons,
    error: v.error,
    record_mask_sample: view.record?.mask_sample ?? null,
    tombstone: view.tombstone,
    incomplete: {
      dangling_intents: gym ? view.dangling_intents.map((i) => i.model_call_id) : [],
      lost_calls: view.incomplete.lost_calls,
      state_flag: gym && view.incomplete.state_flag,
    },
    roots: v.roots,
    chains: view.chains.length,
    unresolved_retries: v.unresolved_retries.length,
    failed_calls: view.failed.filter(isFailedExchange).map(failedFact),
    calls_total: view.calls.length + view.failed.length,
    main_model: view.main_model,
    policy_model: view.policy_model,
    delivered_fraction: view.delivered_fraction,
    generated_tokens: view.generated_tokens,
    oov_tokens: view.oov_tokens,
    oov_first: firstOutsideId(view),
    expert_fallback_fraction: view.expert_fallback_fraction,
    torn_tail: view.read.torn_tail,
    has_capture: view.has_capture,
    capture_expected: view.capture_expected,
    trainer_differs: view.trainer_differs,
  };
}

export function rolloutSeverity(view: RolloutView): SeverityResult {
  return classifySeverity(severityInputOf(view));
}

/** The first id outside 0 … 2^31−1 the store's reader found, for the warning's sentence. */
function firstOutsideId(view: RolloutView): OutsideIdFact | null {
  const o = view.read.lifecycle?.outside_ids[0];
  return o ? { model_call_id: o.model_call_id, line: o.line, digits: o.digits } : null;
}
