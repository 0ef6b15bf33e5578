// Names for where a run's numbers come from, so one shown in two places says which it is: the
// run's rollout records (mean reward over its kept rollouts) or its training curve (reward per step
// from the trainer's logs or metrics.jsonl, which compare averages). Only the words; the numbers are lib/health's.
import { plural } from "@/lib/text";

const n = (x: number) => x.toLocaleString("en-US");

/** "records: 24 rollouts": a number computed over the run's rollout records. */
export const recordsSource = (rollouts: number): string =>
  `records: ${plural(rollouts, "rollout", "rollouts", n(rollouts))}`;

/** "training curve: 100 steps": a number computed over the run's training curve. */
export const curveSource = (steps: number): string =>
  `training curve: ${plural(steps, "step", "steps", n(steps))}`;

/**
 * The one line a run without token capture leads with: that there is nothing to check token by
 * token, and what it has instead (its training curve, its rollout records). `declared` when its
 * run.json says capture is off; else it simply holds no store (a trainer's log directory alone).
 */
export function captureOffLine(run: {
  steps: number;
  hasRecords: boolean;
  declared?: boolean;
}): string {
  const has = [
    run.steps > 0
      ? `its training curve (${plural(run.steps, "step", "steps", n(run.steps))})`
      : null,
    run.hasRecords ? "its rollout records (below)" : null,
  ].filter((p): p is string => p !== null);
  const what =
    has.length > 0 ? `shown: ${has.join(" and ")}` : "it has no training curve or records";
  const why =
    run.declared === false
      ? "No token capture in this run (no token store, model-call store or rollout records)"
      : "Token capture is off for this run: no token files";
  return `${why}, so no verdicts, masks or chains to check; ${what}.`;
}
