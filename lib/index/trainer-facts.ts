// What the trainer's step files say against a run's captured rollouts, held for serving: the
// rollouts whose trained sample (NeMo-RL's `train_data_step{N}.jsonl`, joined by lib/trainer's
// truth check) differs from the capture's main chain. lib/trainer sets it whenever its check is
// computed; the run's served rows, filters and health (./served, ./sql, lib/health) read it as a
// run-level fact beside the policy model. Held on globalThis: Next bundles routes separately.
import "server-only";
import type { TrainerDiffers } from "@/lib/schema";
import type { RunLayout } from "@/lib/runs";
import { indexFor } from "./run-index";

type ByRollout = Readonly<Record<string, TrainerDiffers>>;
const HELD = Symbol.for("rollout-lens.trainer-differs");
const held = ((globalThis as { [HELD]?: Map<string, ByRollout> })[HELD] ??= new Map());
const NONE: ByRollout = Object.freeze({});

/** The rollouts of `run` whose trained sample differs, as the truth check last found them. */
export function trainerDiffersOf(run: Pick<RunLayout, "dir">): ByRollout {
  return held.get(run.dir) ?? NONE;
}

/**
 * Holds the truth check's answer for `run`; when it changed, the rows as served did too: the run's
 * index starts a new generation, so its pages, counts and health are made again with it.
 */
export function setTrainerDiffers(run: RunLayout, byRollout: ByRollout): void {
  const before = held.get(run.dir) ?? NONE;
  if (JSON.stringify(before) === JSON.stringify(byRollout)) return;
  held.set(run.dir, Object.keys(byRollout).length > 0 ? byRollout : NONE);
  indexFor(run).servedChanged();
}
