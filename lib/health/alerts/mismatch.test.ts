import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeGrpoRuns } from "@/fixtures/generator/grpo";
import { writeNemoRlSteps, type PlantedSample } from "@/fixtures/generator/nemo-rl-steps";
import { getRun } from "@/lib/runs/root";
import type { TrainerTruth, TruthSample } from "@/lib/schema/api-trainer";
import { trainerTruthAll } from "@/lib/trainer/truth-check";
import { mismatchAlert } from "./mismatch";
import { truthAlerts } from "./truth";

// The GRPO runs and their step logs regenerated into a temp root: what the generator wrote (each
// sample's exp(|gen − prev|) per token) is the truth the run-level expectations come from.
let root = "";
let planted: PlantedSample[] = [];
beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-mismatch-"));
  await writeGrpoRuns(root);
  planted = (await writeNemoRlSteps(root)).planted;
}, 60_000);

/** NeMo-RL's run value from the written errors: every masked token of every sample alike. */
function runValue(run: string): number {
  const errors = planted
    .filter((p) => p.run === run)
    .flatMap((p) => p.tokenErrors.filter((e): e is number => e !== null));
  return errors.reduce((a, b) => a + b, 0) / errors.length;
}

describe("the trainer's mismatch alert on the generated GRPO runs", () => {
  it("grpo-capture-off: the run's value and the samples past the gate, from what was written", async () => {
    const run = await getRun("grpo-capture-off", root);
    const off = planted.filter((p) => p.run === "grpo-capture-off");
    const over = off.filter((p) => p.multProbError > 2);
    const worst = over.reduce((a, b) => (b.multProbError > a.multProbError ? b : a));
    expect(over.length).toBeGreaterThan(0); // the fixture plants re-tokenized drift here
    const alerts = await truthAlerts(run);
    expect(alerts.map((a) => a.kind)).toEqual(["trainer_mismatch"]);
    const a = alerts[0]!;
    expect(a.severity).toBe("warning");
    expect(a.message).toContain(`is ${runValue("grpo-capture-off").toFixed(3)} over the 24`);
    expect(a.message).toContain(`the sequence error of ${over.length} samples is above 2`);
    expect(a.message).toContain(
      `the worst ${worst.multProbError.toFixed(3)}, \`train_data_step${worst.step}.jsonl\` line ${worst.idx + 1}`,
    );
    expect(a.message).toContain("but this run's step files keep them in");
    // The table has no filter by mismatch: the alert names the file and line, not rollouts.
    expect(a.rollout_ids).toEqual([]);
  });

  it("grpo-capture-on: counts the samples past the gate, beside the truth alert", async () => {
    const run = await getRun("grpo-capture-on", root);
    const over = planted.filter((p) => p.run === "grpo-capture-on" && p.multProbError > 2);
    const alerts = await truthAlerts(run);
    expect(alerts.map((a) => a.kind)).toEqual(["trainer_truth", "trainer_mismatch"]);
    const a = alerts[1]!;
    expect(over.length).toBeGreaterThan(0);
    expect(a.message).toContain(`the sequence error of ${over.length} sample`);
    const value = runValue("grpo-capture-on");
    expect(a.message).toContain(value > 1.05 ? "above 1.05, past which" : "under 1.05, past which");
    // The check's own total agrees with the written errors (to rounding of the file's values).
    const t = await trainerTruthAll(run);
    expect(t.totals.token_mult_prob_error).toBeCloseTo(value, 6);
  });
});

const sample = (mult: number | null, id: string, line = 1): TruthSample => ({
  step: 1,
  record_step: 0,
  idx: line - 1,
  line,
  rollout_id: id,
  class: "identical",
  first_diff: null,
  mask_diffs: 0,
  context: null,
  input_length: 10,
  reward: 1,
  mult_prob_error: mult,
  masked_tokens: mult === null ? 0 : 5,
  loss_tokens: null,
  advantage_tokens: null,
  advantage: null,
  max_token_error: mult,
  max_token_pos: mult === null ? null : 3,
});

const truthOf = (run: number | null, samples: TruthSample[]) =>
  ({ totals: { token_mult_prob_error: run }, samples }) as Pick<TrainerTruth, "totals" | "samples">;

describe("mismatchAlert's thresholds", () => {
  it("stays silent at 1.05 and under, with no sample past 2", () => {
    expect(mismatchAlert(truthOf(1.05, [sample(2, "a"), sample(1.01, "b")]))).toBeNull();
    expect(mismatchAlert(truthOf(null, []))).toBeNull();
  });

  it("speaks above 1.05 even when no sample passes the gate", () => {
    const a = mismatchAlert(truthOf(1.0501, [sample(1.2, "a"), sample(null, "b")]))!;
    expect(a.message).toContain("is 1.050 over the 1 trained sample, above 1.05, past which");
    expect(a.message).toContain("no sample's own error is above 2.");
    expect(a.count).toBe(0);
  });

  it("speaks under 1.05 when one sample passes 2, naming it and its line", () => {
    const a = mismatchAlert(truthOf(1.01, [sample(1, "a", 1), sample(2.5, "b", 7)]))!;
    expect(a.message).toContain("under 1.05, past which");
    expect(a.message).toContain("the sequence error of 1 sample is above 2");
    expect(a.message).toContain("the worst 2.500, `train_data_step1.jsonl` line 7");
    expect(a.rollout_ids).toEqual([]);
  });
});
