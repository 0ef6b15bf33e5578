// The run's policy model for the inspector's banner (the main-chain model most of the run's
// rollouts train on), read from the summary index the run pages already keep (lib/health).
// Only a complete index answers: a vote over part of a cold index could name the wrong model.
import "server-only";
import { servedSnapshot } from "@/lib/health/run-health";
import type { RunLayout } from "@/lib/runs/runs-root";

/**
 * Waits at most `waitMs` (the page builds the rollout meanwhile). A refresh of an index that has
 * completed once still answers from the complete one; a first index still running gives null.
 */
export async function runPolicyOf(run: RunLayout, waitMs = 250): Promise<string | null> {
  try {
    const { snap, policy_model } = await servedSnapshot(run, waitMs);
    const complete = !snap.progress.running || snap.progress.last_ms !== null;
    return complete ? policy_model : null;
  } catch {
    // The index is the run pages' concern; the inspector shows the rollout without the vote.
    return null;
  }
}
