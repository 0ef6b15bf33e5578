// The trainer's step files as a run-level warning over grpo-capture-on: the rollouts whose trained
// sample differs from the capture (planted by fixtures/generator/nemo-rl-steps, regenerated here as
// the generator's own record) are trained with a warning in the table, its reason filter and the
// run's health, once the truth check has read the step files; the others are untouched.
import { beforeAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { plantedSamples } from "@/lib/testing/planted-samples";
import { parseRolloutQuery } from "@/lib/index/query";
import { indexFor } from "@/lib/index/run-index";
import { rolloutPage } from "@/lib/index/served";
import { getRun } from "@/lib/runs/root";
import { serveFixtureRuns } from "@/lib/testing/fixture-runs";
import { reasonOptions } from "@/lib/view/rollout-nav";
import { runHealth } from "./run-health";

serveFixtureRuns();
const ON = "grpo-capture-on";
let differing: string[] = [];
beforeAll(async () => {
  differing = (await plantedSamples(ON))
    .filter((p) => p.cls !== "identical")
    .map((p) => p.rolloutId)
    .sort();
  await indexFor(await getRun(ON, RUNS_DIR)).snapshot({ waitMs: 60_000 });
}, 60_000);

async function rows(query: string) {
  const q = parseRolloutQuery(new URLSearchParams(`${query}&limit=5000`));
  return (await rolloutPage(await getRun(ON, RUNS_DIR), q)).rollouts;
}

describe("grpo-capture-on: rollouts the trainer trained otherwise", () => {
  it("the run's health counts them as trained with a warning, and the filter offers it", async () => {
    expect(differing).toHaveLength(2);
    const health = await runHealth(await getRun(ON, RUNS_DIR));
    const reason = health.severity_reasons.find((r) => r.key === "the trainer's sample differs");
    expect(reason?.count).toBe(differing.length);
    expect(health.severity.trained_with_warnings).toBeGreaterThanOrEqual(differing.length);
    expect(reasonOptions(health)).toContainEqual({
      group: "warnings",
      value: "trainer_differs",
      label: `the trainer's sample differs (${differing.length})`,
    });
    const alert = health.alerts.find((a) => a.kind === "trainer_truth");
    expect(alert?.table_query).toBe("reason=trainer_differs");
  });

  it("the table serves exactly them with the warning, and no other row carries it", async () => {
    await runHealth(await getRun(ON, RUNS_DIR)); // the run page's first look: the check is read
    const all = await rows("");
    expect(all.length).toBeGreaterThan(differing.length);
    for (const r of all) {
      const codes = r.severity_reasons.map((x) => x.code);
      if (differing.includes(r.rollout_id)) {
        expect(r.severity, r.rollout_id).toBe("trained_with_warnings");
        expect(codes, r.rollout_id).toContain("trainer_differs");
      } else expect(codes, r.rollout_id).not.toContain("trainer_differs");
    }
    const filtered = await rows("reason=trainer_differs");
    expect(filtered.map((r) => r.rollout_id).sort()).toEqual(differing);
    const warned = await rows("severity=trained_with_warnings");
    expect(warned.map((r) => r.rollout_id)).toEqual(expect.arrayContaining(differing));
    const plain = await rows("severity=trained");
    expect(plain.map((r) => r.rollout_id)).not.toEqual(expect.arrayContaining([differing[0]]));
  });
});
