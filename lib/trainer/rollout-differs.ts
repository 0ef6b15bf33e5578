// Whether the trainer trained one rollout otherwise than its main chain (a sample of the run's step
// files whose token ids or loss mask differ), for a page that judges a rollout without the
// inspector's own request for it (the diff page). Through the truth check, cached as it is.
import { trainerDiffersOf } from "@/lib/index";
import type { RunLayout } from "@/lib/runs";
import type { TrainerDiffers } from "@/lib/schema";
import { trainerLogDir, trainerTruthAll } from "./truth-check";

/** The rollout's differing sample; null when it has none or the run has no step files. */
export async function rolloutTrainerDiffers(
  run: RunLayout,
  rolloutId: string,
): Promise<TrainerDiffers | null> {
  if (!(await trainerLogDir(run))) return null;
  // The check hands its differing rollouts to the index's run-level facts as it ends.
  await trainerTruthAll(run);
  return trainerDiffersOf(run)[rolloutId] ?? null;
}
