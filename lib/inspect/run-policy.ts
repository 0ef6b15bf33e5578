// The run's policy model for the inspector's banner (the main-chain model most of the run's
// rollouts train on), read from the summary index the run pages already keep (lib/health).
// Only a complete index answers: a vote over part of a cold index could name the wrong model.
import "server-only";
import { servedSnapshot, indexFor } from "@/lib/index";
import type { RunLayout } from "@/lib/runs";

export interface RunPolicy {
  policy_model: string | null;
  /** The index has not completed once: the policy is not known yet (null is not "no policy"). */
  policy_pending: boolean;
}

/**
 * Brings the run's index up to date (starting it if need be) and waits at most `waitMs` for it. A
 * refresh of an index that has completed once still answers from the complete one.
 */
export async function runPolicyOf(run: RunLayout, waitMs = 250): Promise<RunPolicy> {
  try {
    const { snap, policy_model } = await servedSnapshot(run, waitMs);
    const complete = !snap.progress.running || snap.progress.last_ms !== null;
    return complete
      ? { policy_model, policy_pending: false }
      : { policy_model: null, policy_pending: true };
  } catch {
    // The index is the run pages' concern; the inspector shows the rollout without the vote.
    return { policy_model: null, policy_pending: false };
  }
}

/**
 * The policy when the run's index has completed once in this process; otherwise pending, without
 * starting the index: on a cold server it would read every rollout while the page builds this one.
 */
export async function knownRunPolicy(run: RunLayout): Promise<RunPolicy> {
  if (indexFor(run).progress.last_ms === null) return { policy_model: null, policy_pending: true };
  return runPolicyOf(run, 0);
}
