// The run alerts of the truth check: on a capture-on run, any trained sample whose tokens or loss
// mask differ from what the capture delivered (lib/trainer/truth-check); capture-off runs have no
// delivery to compare with, so they get none. And, on any run with step files, the trainer's
// train/inference mismatch (./mismatch). Not responsible for the check itself.
import "server-only";
import type { Alert } from "@/lib/schema";
import type { RunLayout } from "@/lib/runs";
import type { TrainerTruth } from "@/lib/schema";
import { trainerTruthAll } from "@/lib/trainer";
import { plural } from "@/lib/text";
import { mismatchAlert, type MismatchAlert } from "./mismatch";

/** The alert's kind; lib/schema/api-runs alertSchema must list it (see the report). */
export const TRUTH_ALERT_KIND = "trainer_truth";
const SAMPLE = 20;

export type TruthAlert = Omit<Alert, "kind"> & { kind: typeof TRUTH_ALERT_KIND };

export async function truthAlerts(run: RunLayout): Promise<Array<TruthAlert | MismatchAlert>> {
  // Its caller (the run's health) has just brought the index up to date, at its own cadence.
  const t = await trainerTruthAll(run, { refreshMs: Infinity });
  const mismatch = mismatchAlert(t);
  return [
    ...(run.manifest.capture === "on" ? differsAlerts(t) : []),
    ...(mismatch ? [mismatch] : []),
  ];
}

function differsAlerts(t: TrainerTruth): TruthAlert[] {
  const { samples, mask_differs: masks, tokens_differ: tokens } = t.totals;
  const differing = masks + tokens;
  if (differing === 0) return [];
  const ids = [
    ...new Set(
      t.samples
        .filter((s) => s.class === "mask_differs" || s.class === "tokens_differ")
        .flatMap((s) => (s.rollout_id ? [s.rollout_id] : [])),
    ),
  ];
  const parts = [
    tokens > 0 ? `tokens differ for ${plural(tokens, "sample")}` : null,
    masks > 0 ? `the loss mask differs for ${plural(masks, "sample")}` : null,
  ].filter((p) => p !== null);
  return [
    {
      kind: TRUTH_ALERT_KIND,
      severity: "error",
      verdict: null,
      count: ids.length,
      message: `The trainer did not train on what the capture delivered for ${differing.toLocaleString("en-US")} of ${samples.toLocaleString("en-US")} samples in \`train_data_step{N}.jsonl\`: ${parts.join(", ")}.`,
      rollout_ids: ids.slice(0, SAMPLE),
    },
  ];
}
