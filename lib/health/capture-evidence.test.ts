// A run whose records carry no capture metrics and that has no token store (large-run-steps'
// shape, written small here by its generator) knows nothing of quarantine: its health counts no
// rollout with capture evidence, so the page says "not known", never "0 in 0 rollouts".
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LARGE_STEPS_RUN, writeLargeStepFiles } from "@/fixtures/generator/large-steps";
import { RUNS_DIR } from "@/fixtures/generate";
import { getRun } from "@/lib/runs/root";
import { serveFixtureRuns } from "@/lib/testing/fixture-runs";
import { runHealth } from "./run-health";

serveFixtureRuns();
const ROLLOUTS = 128;
const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-evidence-"));
const saved = process.env.ROLLOUT_LENS_RUNS;
beforeAll(() => {
  process.env.ROLLOUT_LENS_RUNS = root;
  writeLargeStepFiles(root, ROLLOUTS);
});
afterAll(() => {
  if (saved === undefined) delete process.env.ROLLOUT_LENS_RUNS;
  else process.env.ROLLOUT_LENS_RUNS = saved;
});

describe("capture evidence in the run's health", () => {
  it("is none in a run of records without capture metrics and without a store", async () => {
    const h = await runHealth(await getRun(LARGE_STEPS_RUN, root), 60_000);
    expect(h.rollouts).toBe(ROLLOUTS);
    expect(h.rollouts_with_capture).toBe(0);
  });

  it("is every rollout of a run whose records all carry capture metrics (gym-main-v1)", async () => {
    process.env.ROLLOUT_LENS_RUNS = RUNS_DIR;
    const records = readFileSync(path.join(RUNS_DIR, "gym-main-v1", "rollouts.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.every((r) => "_ng_token_capture" in r)).toBe(true);
    const h = await runHealth(await getRun("gym-main-v1", RUNS_DIR), 60_000);
    expect(h.rollouts_with_capture).toBe(records.length);
  });
});
