// While a cold index summarises, the run page's polls (the health and rollouts routes) answer at
// once with what is done instead of waiting on the index, so its progress moves every poll; a
// first look still waits for a small run's index to finish.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { writeLargeRun } from "@/fixtures/generator/large";
import { parseRolloutQuery } from "@/lib/index/query";
import { getRun, type RunLayout } from "@/lib/runs/root";
import { indexFor } from "@/lib/index/run-index";
import { rolloutPage } from "@/lib/index/served";
import { runHealth } from "./run-health";

/** Enough rollouts that their cold index takes seconds on the pool, long past the polls below. */
const ROLLOUTS = 1_500;
const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-wait-"));
const saved = { runs: process.env.ROLLOUT_LENS_RUNS, cache: process.env.ROLLOUT_LENS_CACHE };
let run: RunLayout;

beforeAll(async () => {
  process.env.ROLLOUT_LENS_RUNS = root;
  process.env.ROLLOUT_LENS_CACHE = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-wait-cache-"));
  await writeLargeRun(root, ROLLOUTS);
  run = await getRun("large-run", root);
}, 120_000);
afterAll(async () => {
  // Let the index finish so no worker outlives the file's tests.
  await indexFor(run).snapshot({ waitMs: 120_000 });
  for (const [key, value] of [
    ["ROLLOUT_LENS_RUNS", saved.runs],
    ["ROLLOUT_LENS_CACHE", saved.cache],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
}, 130_000);

describe("waiting on a cold index", () => {
  it("answers a poll at once while the index summarises, with what is done and the progress", async () => {
    await runHealth(run, 0);
    await vi.waitFor(() => expect(indexFor(run).progress.running).toBe(true), {
      timeout: 30_000,
      interval: 20,
    });
    const polls: Array<{ ms: number; running: boolean; done: number; total: number }> = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const h = await runHealth(run);
      const page = await rolloutPage(run, parseRolloutQuery(new URLSearchParams("limit=10")));
      polls.push({
        ms: performance.now() - t0,
        running: h.progress.running && page.progress.running,
        done: h.rollouts,
        total: h.rollouts + h.severity.pending,
      });
    }
    // The routes' first look waits up to 1.5 s for an index; a poll during one must not.
    for (const p of polls) {
      expect(p.running).toBe(true);
      expect(p.ms).toBeLessThan(500);
      expect(p.total).toBe(ROLLOUTS);
    }
  }, 60_000);
});
