// What the inspector offers to diff a rollout with: the other attempts `R-aN` of the same rollout
// in its token store (docs/gym-v1-store.md §6), listed without reading them. Not responsible for
// the other builder profile's chain (the page links the same rollout under that profile).
import "server-only";
import type { RunLayout } from "@/lib/runs";
import { attemptOf, listStore } from "@/lib/store";

/** The rollout's attempt group but itself (base first, then by N); empty without attempts. */
export async function otherAttempts(run: RunLayout, rolloutId: string): Promise<string[]> {
  if (!run.tokensDir) return [];
  const base = attemptOf(rolloutId)?.base ?? rolloutId;
  const listing = await listStore(run.tokensDir);
  return (listing.attempts.get(base) ?? []).filter(
    (id) => id !== rolloutId && listing.rollouts.has(id),
  );
}
