// The run alert of the trainer's train/inference mismatch: NeMo-RL's `token_mult_prob_error` over
// every trained sample of the run's train_data_step{N}.jsonl above the 1.05 NeMo-RL asks to
// investigate, or samples whose own error passes the gate NeMo-Gym's recipes set. Capture-on and
// capture-off runs alike: the mismatch is the trainer's. It names the worst sample's file and line,
// not rollouts: the table has no filter by mismatch, and the run's hotspots (docs/hotspots.md) say
// where it concentrates, each worst occurrence linked. Pure; the values are lib/trainer's.
import type { Alert } from "@/lib/schema";
import type { TrainerTruth } from "@/lib/schema";
import { INVESTIGATE_ABOVE, SEQUENCE_GATE } from "@/lib/trainer/pure";
import { plural } from "@/lib/text";

export const MISMATCH_ALERT_KIND = "trainer_mismatch";
export type MismatchAlert = Omit<Alert, "kind"> & { kind: typeof MISMATCH_ALERT_KIND };

const three = (v: number) => v.toFixed(3);

/** The alert for `t`, a check over every sample (trainerTruthAll), or null when nothing passes. */
export function mismatchAlert(t: Pick<TrainerTruth, "totals" | "samples">): MismatchAlert | null {
  const run = t.totals.token_mult_prob_error;
  const over = t.samples
    .filter((s) => s.mult_prob_error !== null && s.mult_prob_error > SEQUENCE_GATE)
    .sort((a, b) => (b.mult_prob_error as number) - (a.mult_prob_error as number));
  const runOver = run !== null && run > INVESTIGATE_ABOVE;
  if (!runOver && over.length === 0) return null;
  const trained = t.samples.filter((s) => s.mult_prob_error !== null).length;
  const lead =
    run === null
      ? "The trainer's log probs and the inference engine's disagree"
      : runOver
        ? `The trainer's log probs and the inference engine's disagree: \`token_mult_prob_error\` is ${three(run)} over the ${plural(trained, "trained sample", "trained samples", trained.toLocaleString("en-US"))}, above ${INVESTIGATE_ABOVE}, past which NeMo-RL's model guide asks to investigate`
        : `\`token_mult_prob_error\` is ${three(run)} over the ${plural(trained, "trained sample", "trained samples", trained.toLocaleString("en-US"))}, under ${INVESTIGATE_ABOVE}, past which NeMo-RL's model guide asks to investigate, but some samples are far off`;
  const worst = over[0];
  const gate =
    worst === undefined
      ? `; no sample's own error is above ${SEQUENCE_GATE}.`
      : `; the sequence error of ${plural(over.length, "sample", "samples", over.length.toLocaleString("en-US"))} is above ${SEQUENCE_GATE} (the worst ${three(worst.mult_prob_error as number)}, \`train_data_step${worst.step}.jsonl\` line ${worst.line}): NeMo-Gym's GRPO recipes set \`grpo.seq_logprob_error_threshold: ${SEQUENCE_GATE}\` to leave such samples out of the loss, but this run's step files keep them in (their loss masks are not 0).`;
  return {
    kind: MISMATCH_ALERT_KIND,
    severity: "warning",
    verdict: null,
    count: 0,
    message: lead + gate,
    rollout_ids: [],
  };
}
