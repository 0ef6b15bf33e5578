// The advantages NeMo-RL logged, by rollout: each trained sample's (train_data_step{N}.jsonl
// `advantages`, lib/trainer/step-data loggedAdvantageOf) that the truth check joined to a rollout,
// for the groups route to set beside its own (lib/runs withLoggedAdvantages). Cached as the check.
import type { LoggedByRollout, RunLayout } from "@/lib/runs";
import { trainerTruthAll } from "./truth-check";

/** The run's logged advantages by rollout id; empty when its step files log none. */
export async function loggedAdvantages(run: RunLayout): Promise<LoggedByRollout> {
  const truth = await trainerTruthAll(run);
  const byRollout = new Map<string, number>();
  const steps = new Set<number>();
  for (const s of truth.samples) {
    if (s.rollout_id === null || s.advantage === null || byRollout.has(s.rollout_id)) continue;
    byRollout.set(s.rollout_id, s.advantage);
    steps.add(s.step);
  }
  const files = truth.steps.filter((s) => steps.has(s.step)).map((s) => s.file);
  return { byRollout, files };
}
