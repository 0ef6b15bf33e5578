// The run's health is computed as its index ends, before the progress says it is done: the first
// look after an index is a warm one (no pass over the rows), and says what the records say.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { line } from "@/lib/testing/temp-store";
import { getRun } from "@/lib/runs/root";
import { indexFor } from "@/lib/index/run-index";
import { SETTLE_FROM } from "@/lib/index/settled";
import { runHealth } from "./run-health";

/** Every health pass over an index's rows (./pass paced), counted. */
const passes = vi.hoisted(() => ({ n: 0 }));
vi.mock("./pass", async (original) => {
  const pass = await original<typeof import("./pass")>();
  return {
    ...pass,
    paced: (...a: Parameters<typeof pass.paced>) => (passes.n++, pass.paced(...a)),
  };
});

const saved = process.env.ROLLOUT_LENS_CACHE;
afterAll(() => {
  if (saved === undefined) delete process.env.ROLLOUT_LENS_CACHE;
  else process.env.ROLLOUT_LENS_CACHE = saved;
});

describe("the health after an index", () => {
  it("is computed as the index ends: the first look runs no pass", async () => {
    process.env.ROLLOUT_LENS_CACHE = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-settle-"));
    const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-settle-runs-"));
    mkdirSync(path.join(root, "run"));
    const n = SETTLE_FROM; // the smallest index whose end computes its health
    const masked = (i: number) => i % 10 === 0;
    const records = Array.from({ length: n }, (_, i) =>
      line({ _ng_task_index: i, _ng_rollout_index: 0, reward: 1, mask_sample: masked(i) }),
    );
    writeFileSync(path.join(root, "run", "rollouts.jsonl"), records.join(""));
    const run = await getRun("run", root);
    const index = indexFor(run, root);
    await index.snapshot({ minIntervalMs: 0, waitMs: 60_000 });
    expect(index.progress.running).toBe(false);
    const before = passes.n;
    expect(before).toBeGreaterThan(0); // the pass the index's end ran
    const health = await runHealth(run, 0);
    expect(passes.n).toBe(before);
    expect(health.rollouts).toBe(n);
    expect(health.masked).toBe(records.filter((_, i) => masked(i)).length);
    expect(health.severity.pending).toBe(0);
    index.close();
  }, 60_000);
});
