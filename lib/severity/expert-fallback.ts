// The warning of a rollout whose router replay fell back (docs/experts.md): its share of the main
// chain's expert routes that fell back to the trainer's router or are missing.
import { makeReason, type Reason, WARNING_TITLES } from "./reasons";

/**
 * A rollout warns from this share of its main chain's expert routes fallen back or missing: the
 * run's alert lists the same rollouts (lib/health), and NeMo-RL's router replay trains those tokens
 * with the trainer's own router.
 */
export const EXPERT_FALLBACK_WARN_AT = 0.01;

export function expertFallbackReason(fraction: number): Reason {
  // Never round a partial fallback up to "100%".
  const pct = fraction >= 1 ? "100%" : `${Math.min(99.9, Math.round(fraction * 1000) / 10)}%`;
  return makeReason(
    "expert_fallback",
    "trained_with_warnings",
    WARNING_TITLES.expert_fallback,
    `${pct} of the main chain's routed experts fell back to the trainer's router or are missing (router replay): the trainer computed those tokens with other experts than inference used`,
  );
}
