import { describe, expect, it } from "vitest";
import { PLANTED } from "@/fixtures/generator/nemo-rl-steps";
import { getRun } from "@/lib/runs/root";
import { serveFixtureRuns } from "@/lib/testing/fixture-runs";
import { RUNS_DIR } from "@/fixtures/generate";
import { trainerTruth } from "@/lib/trainer/truth-check";
import { truthAlerts } from "./truth";

serveFixtureRuns();

describe("truthAlerts", () => {
  it("a capture-on run whose trainer trained on something else gets one error naming the rollouts", async () => {
    const run = await getRun("grpo-capture-on", RUNS_DIR);
    const t = await trainerTruth(run);
    // The planted samples' rollouts, looked up by the generator's step and idx.
    const planted = [PLANTED.maskDiffers, PLANTED.tokensDiffer].map(
      ([step, idx]) => t.samples.find((s) => s.step === step && s.idx === idx)!.rollout_id,
    );
    const alerts = (await truthAlerts(run)).filter((a) => a.kind === "trainer_truth");
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ kind: "trainer_truth", severity: "error", count: 2 });
    expect([...alerts[0]!.rollout_ids].sort()).toEqual([...planted].sort());
    expect(alerts[0]!.message).toContain(`for 2 of ${t.totals.samples} samples`);
  });

  it("a capture-off run, with nothing delivered to compare, gets none", async () => {
    const alerts = await truthAlerts(await getRun("grpo-capture-off", RUNS_DIR));
    expect(alerts.filter((a) => a.kind === "trainer_truth")).toEqual([]);
  });
});
