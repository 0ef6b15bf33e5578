// Which model a rollout trains on and which model a run trains on (its policy), so the severity
// model can flag a rollout whose main chain came from another model (a side model that
// out-generated the policy). Counting only: reading entries and summaries happens elsewhere.
import { compareCodePoints } from "@/lib/builder";

/** A call's model for these comparisons: what the harness asked for, else what served it. */
export interface CallModelFact {
  requested_model?: string | null;
  model: string | null;
  /** Generated tokens of the call (its weight in the main chain). */
  generated: number;
}

/** The key with the highest count; ties go to the smallest key by code point; null if empty. */
function topKey(counts: ReadonlyMap<string, number>): string | null {
  let best: string | null = null;
  let bestCount = -Infinity;
  for (const [key, count] of counts) {
    const wins =
      count > bestCount || (count === bestCount && compareCodePoints(key, best ?? "") < 0);
    if (wins) {
      best = key;
      bestCount = count;
    }
  }
  return best;
}

/**
 * The model of a rollout's main chain: the one that generated most of its tokens. Harnesses
 * often route every requested model to one server, so the requested model wins over the served
 * one. Null when no call names a model.
 */
export function mainChainModel(calls: Iterable<CallModelFact>): string | null {
  const mass = new Map<string, number>();
  for (const c of calls) {
    const name = c.requested_model ?? c.model;
    if (name === null || name === "") continue;
    mass.set(name, (mass.get(name) ?? 0) + Math.max(0, c.generated));
  }
  return topKey(mass);
}

/**
 * The run's policy model: the main-chain model most of its rollouts train on. Rollouts with an
 * unknown model (null) do not vote; ties go to the smallest name by code point, so the answer
 * does not depend on the order rollouts were listed in. Null when no rollout names a model.
 */
export function runPolicyModel(mainModels: Iterable<string | null>): string | null {
  const votes = new Map<string, number>();
  for (const m of mainModels) {
    if (m === null || m === "") continue;
    votes.set(m, (votes.get(m) ?? 0) + 1);
  }
  return topKey(votes);
}
