// The truth check reads NeMo-RL's step files on a store worker (./truth-check runTruthStep): a
// large train_data_step file (80 samples of 60,000 tokens, ~50 MB) is parsed and checked there, so
// the server's event loop is never held for 100 ms at a stretch, and every sample is counted
// (none joins a rollout: the run has no token store, so each is `no_capture`).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { watchEventLoop } from "@/lib/testing/event-loop";
import { afterAll, describe, expect, it } from "vitest";
import { storePool } from "@/lib/rollout/pool";
import { getRun } from "@/lib/runs/root";
import { trainerTruth } from "./truth-check";

const SAMPLES = 80;
const TOKENS = 60_000;
const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-truth-off-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function stepLine(idx: number): string {
  const ids = Array.from({ length: TOKENS }, (_, i) => (i * 7919 + idx) % 100_000);
  const per = (f: (i: number) => number) => [Array.from({ length: TOKENS }, (_, i) => f(i))];
  return JSON.stringify({
    idx,
    agent_ref: [{ name: "agent" }],
    rewards: [idx % 2],
    input_lengths: [TOKENS],
    token_ids: [ids],
    token_loss_mask: per((i) => (i % 3 === 0 ? 1 : 0)),
    sample_loss_mask: [1],
    generation_logprobs: per((i) => -((i % 11) / 10)),
    prev_logprobs: per((i) => -((i % 11) / 10) - 0.01),
  });
}

describe("a large step file", () => {
  it("is checked on a store worker: the event loop's longest busy stretch stays under 100 ms", async () => {
    const run = path.join(root, "steps-run");
    mkdirSync(path.join(run, "logs"), { recursive: true });
    writeFileSync(path.join(run, "run.json"), JSON.stringify({ name: "steps" }));
    const lines = Array.from({ length: SAMPLES }, (_, i) => stepLine(i));
    writeFileSync(path.join(run, "logs", "train_data_step1.jsonl"), lines.join("\n") + "\n");
    expect(storePool("interactive"), "a built store worker").not.toBeNull();
    const layout = await getRun("steps-run", root);
    const loop = watchEventLoop();
    const t0 = performance.now();
    const truth = await trainerTruth(layout);
    const { maxBusyMs } = loop.stop();
    console.log(
      `step file of ${SAMPLES} × ${TOKENS} tokens: ${(performance.now() - t0).toFixed(0)} ms, ` +
        `longest busy stretch ${maxBusyMs.toFixed(1)} ms`,
    );
    expect(truth.totals.samples).toBe(SAMPLES);
    expect(truth.totals.no_capture).toBe(SAMPLES);
    expect(maxBusyMs).toBeLessThan(100);
  }, 120_000);
});
