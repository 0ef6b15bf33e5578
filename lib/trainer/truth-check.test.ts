import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeGrpoRuns } from "@/fixtures/generator/grpo";
import { writeNemoRlSteps, type PlantedSample } from "@/fixtures/generator/nemo-rl-steps";
import { getRun } from "@/lib/runs/root";
import type { TrainerTruth } from "@/lib/schema/api-trainer";
import { trainerTruth } from "./truth-check";
import { joinStep } from "./truth-join";

// The GRPO runs and their step logs regenerated into a temp root: the generator's own record of
// what it planted is the truth every expectation below comes from.
let planted: PlantedSample[] = [];
const truths = new Map<string, TrainerTruth>();
beforeAll(async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-truth-"));
  await writeGrpoRuns(root);
  planted = (await writeNemoRlSteps(root)).planted;
  for (const id of ["grpo-capture-on", "grpo-capture-off"])
    truths.set(id, await trainerTruth(await getRun(id, root)));
}, 60_000);

describe("the truth check of grpo-capture-on", () => {
  const on = () => truths.get("grpo-capture-on")!;
  const plantedOn = () => planted.filter((p) => p.run === "grpo-capture-on");

  it("counts per run what the trainer trained on exactly as captured", () => {
    const t = on();
    const count = (cls: string) => plantedOn().filter((p) => p.cls === cls).length;
    expect(t.log_dir).toBe("logs");
    expect(t.issues).toEqual([]);
    expect(t.totals).toMatchObject({
      samples: plantedOn().length,
      identical: count("identical"),
      mask_differs: count("mask_differs"),
      tokens_differ: count("tokens_differ"),
      no_capture: 0,
    });
    expect(t.steps.map((s) => s.step)).toEqual([...new Set(plantedOn().map((p) => p.step))]);
  });

  it("names each planted sample, its rollout and where it differs", () => {
    for (const p of plantedOn()) {
      const row = on().samples.find((s) => s.step === p.step && s.idx === p.idx)!;
      expect(row, `${p.step}/${p.idx}`).toBeDefined();
      expect(row).toMatchObject({
        rollout_id: p.rolloutId,
        class: p.cls,
        first_diff: p.firstDiff,
        mask_diffs: p.maskDiffs,
        record_step: p.step - 1,
        line: p.idx + 1,
      });
    }
  });

  it("shows the decoded text either side of the differing token", () => {
    const p = plantedOn().find((x) => x.cls === "tokens_differ")!;
    const row = on().samples.find((s) => s.step === p.step && s.idx === p.idx)!;
    expect(on().samples[0]).toBe(row); // differences are listed first
    const c = row.context!;
    expect(c.before.length).toBeGreaterThan(0);
    expect(c.trainer).not.toBe(c.capture);
    // A re-tokenization: the same text, split into other tokens.
    expect(c.capture.startsWith(c.trainer.slice(0, 4))).toBe(true);
  });
});

describe("grpo-capture-off: no capture, and drift shows as mismatch", () => {
  const off = () => truths.get("grpo-capture-off")!;

  it("has no captured rollout for any sample", () => {
    const n = planted.filter((p) => p.run === "grpo-capture-off").length;
    expect(off().totals).toMatchObject({ samples: n, no_capture: n, identical: 0 });
  });

  it("the drifted samples carry the worst tokens, at the drifted positions", () => {
    for (const p of planted.filter((x) => x.run === "grpo-capture-off")) {
      const row = off().samples.find((s) => s.step === p.step && s.idx === p.idx)!;
      if (p.drifted.length > 0) {
        expect(p.drifted).toContain(row.max_token_pos);
        expect(row.max_token_error!).toBeGreaterThan(Math.exp(4));
      } else expect(row.max_token_error!).toBeLessThan(Math.exp(0.02));
    }
    const onMax = Math.max(
      ...truths.get("grpo-capture-on")!.steps.map((s) => s.token_mult_prob_error!),
    );
    for (const s of off().steps) expect(s.token_mult_prob_error!).toBeGreaterThan(onMax);
  });
});

describe("joinStep", () => {
  const chain = (ids: number[]) => ({ token_ids: ids, loss_mask: ids.map(() => 1) });
  it("among rollouts with equal tokens, takes the one at the sample's idx", () => {
    const c = [
      { rolloutId: "a", agentName: null, main: chain([1, 2, 3]) },
      { rolloutId: "b", agentName: null, main: chain([1, 2, 3]) },
    ];
    const s = (idx: number) => ({
      idx,
      agentName: null,
      tokenIds: [1, 2, 3],
      tokenLossMask: [1, 1, 1],
    });
    expect(joinStep([s(1), s(0)], c).map((j) => j.rolloutId)).toEqual(["b", "a"]);
  });
  it("a sample without an equal rollout joins the longest shared prefix; none captured is no_capture", () => {
    const c = [
      { rolloutId: "a", agentName: null, main: chain([1, 9, 9]) },
      { rolloutId: "b", agentName: null, main: chain([1, 2, 9]) },
    ];
    const j = joinStep([{ idx: 0, agentName: null, tokenIds: [1, 2, 3], tokenLossMask: null }], c);
    expect(j[0]).toMatchObject({ rolloutId: "b", cls: "tokens_differ", firstDiff: 2 });
    const none = joinStep(
      [{ idx: 0, agentName: null, tokenIds: [1], tokenLossMask: null }],
      [{ rolloutId: "r", agentName: null, main: null }],
    );
    expect(none[0]).toMatchObject({ rolloutId: "r", cls: "no_capture" });
  });
});
