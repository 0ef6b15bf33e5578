// The signal ledger of the signal-ledger fixture, regenerated into a temp root, against the
// generator's own plan (fixtures/generator/signal-ledger: every call's role is planted, and the
// loss masks counted as written), never against the code under test.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  MASKED_OUT,
  writeSignalLedger,
  type SignalLedgerTruth,
} from "@/fixtures/generator/signal-ledger";
import { trainerTruthAll } from "@/lib/trainer/truth-check";
import { getRun } from "@/lib/runs/root";
import { parseRolloutQuery } from "@/lib/index/query";
import { rolloutPage } from "@/lib/index/served";
import type { RunLayout } from "@/lib/runs";
import type { RunLedger } from "@/lib/schema";
import { runLedger } from "./run-ledger";

let truth: SignalLedgerTruth;
let ledger: RunLedger;
let run: RunLayout;
beforeAll(async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-ledger-"));
  const written = await writeSignalLedger(root);
  truth = written.truth;
  run = await getRun(written.run, root);
  ledger = await runLedger(run);
}, 60_000);

describe("the sample the trainer left out of the loss (sample_loss_mask 0)", () => {
  it("is not 'identical' in the truth check: its loss mask differs at every trained token", async () => {
    const t = await trainerTruthAll(run);
    const s = t.samples.find((x) => x.rollout_id === MASKED_OUT)!;
    // The generator wrote the main chain's own loss mask and a sample mask of 0.
    expect(s).toMatchObject({ class: "mask_differs", loss_tokens: 0 });
    expect(s.mask_diffs).toBeGreaterThan(0);
    expect(t.samples.filter((x) => x.class === "mask_differs").map((x) => x.rollout_id)).toContain(
      MASKED_OUT,
    );
  });
});

describe("the signal ledger of signal-ledger", () => {
  it("equals the planted counts per step, each loss by name", () => {
    expect(ledger.steps.map((s) => s.step)).toEqual([...truth.steps.keys()]);
    for (const s of ledger.steps) {
      const t = truth.steps.get(s.step!)!;
      const { delivered, ...losses } = t.parts;
      expect(s.captured).toBe(t.captured);
      expect(s.losses).toEqual(losses);
      expect(s.delivered).toBe(delivered);
      expect(s.in_loss_mask).toBe(t.inLossMask);
      expect(s.with_advantage).toBe(t.withAdvantage);
      expect(s.counted).toBe(s.rollouts);
    }
  });

  it("says unknown, not 0, for the step without a train_data_step file", () => {
    const step1 = ledger.steps.find((s) => s.step === 1)!;
    expect(step1).toMatchObject({ in_loss_mask: null, with_advantage: null, step_file: null });
    expect(ledger.steps.find((s) => s.step === 0)!.step_file).toBe("train_data_step1.jsonl");
  });

  it("counts each step's re-rendered prompts and names the first one's differing token", () => {
    for (const s of ledger.steps) {
      const t = truth.steps.get(s.step!)!;
      expect([s.calls, s.rerendered, s.rerendered_rollouts]).toEqual([
        t.calls,
        t.rerendered,
        t.rerenderedRollouts,
      ]);
    }
    const f = truth.firstRerendered;
    expect(ledger.rerendered_sample[0]).toEqual({
      rollout_id: f.rolloutId,
      call_id: f.callId,
      chain: "main",
      position: f.position,
    });
  });

  it("puts the run totals in words over the steps that have step files", () => {
    const t = truth.steps.get(0)!;
    const pct = (n: number) => `${Math.round((100 * n) / t.captured)}%`;
    expect(ledger.sentence).toContain(`${pct(t.withAdvantage!)} of the generated tokens`);
    expect(ledger.sentence).toContain("reached the gradient");
    // The share's tokens are named, and the step without a step file is set apart with its own.
    const rest = [...truth.steps.entries()]
      .filter(([step]) => step !== 0)
      .reduce((a, [, s]) => a + s.captured, 0);
    // Its share of the whole run too, as the legend below gives every stage's.
    const all = t.captured + rest;
    const whole = `${Math.round((100 * t.withAdvantage!) / all)}% of the whole run's ${all.toLocaleString("en-US")}`;
    expect(ledger.sentence).toContain(
      `(of ${t.captured.toLocaleString("en-US")} tokens, in the 1 step with a train_data_step file; ${whole})`,
    );
    expect(ledger.sentence).toContain(
      `The 1 step without one (${rest.toLocaleString("en-US")} tokens) is not counted`,
    );
  });

  it("counts the step without a step file's equal-reward tokens, which no baseline gives advantage", () => {
    // Step 0's advantage stage is known (its step file logs advantages); step 1's is not.
    const t = truth.equalReward.get(1)!;
    expect(t.delivered).toBeGreaterThan(0);
    const of = truth.steps.get(1)!.parts.delivered;
    expect(ledger.equal_reward).toEqual({ delivered: t.delivered, rollouts: t.rollouts, of });
    const pct = `${Math.round((100 * t.delivered) / of)}% of theirs`;
    expect(ledger.sentence).toContain(
      `In the steps without one, ${t.delivered.toLocaleString("en-US")} delivered tokens (${pct}), of ${t.rollouts} rollout`,
    );
  });

  it("each stage's filter lists exactly the rollouts with tokens there", async () => {
    const page = async (q: string) =>
      (await rolloutPage(run, parseRolloutQuery(new URLSearchParams(q)))).rollouts.map(
        (r) => r.rollout_id,
      );
    const rerendered = await page("ledger=rerendered&limit=100");
    expect(rerendered).toHaveLength(
      [...truth.steps.values()].reduce((a, s) => a + s.rerenderedRollouts, 0),
    );
    const side = await page("ledger=side_calls&step=0&limit=100");
    expect(side.length).toBeGreaterThan(0);
    for (const id of side) expect(id.split("-")[0]).toMatch(/^[012]$/);
  });
});
