// The rollout view's verdict as the severity model sees it (lib/severity): the consumer's verdict,
// the record's own mask_sample and the build's shape. Maps facts only; classifying is lib/severity's.
import type { RolloutView } from "@/lib/schema/api-rollout";
import { classifySeverity, type SeverityInput, type SeverityResult } from "@/lib/severity";

export function severityInputOf(view: RolloutView): SeverityInput {
  const v = view.verdict;
  return {
    mask_sample: v.mask_sample,
    mask_reasons: v.mask_reasons,
    error: v.error,
    record_mask_sample: view.record?.mask_sample ?? null,
    roots: v.roots,
    chains: view.chains.length,
    unresolved_retries: v.unresolved_retries.length,
    delivered_fraction: view.delivered_fraction,
    torn_tail: view.read.torn_tail,
  };
}

export function rolloutSeverity(view: RolloutView): SeverityResult {
  return classifySeverity(severityInputOf(view));
}
