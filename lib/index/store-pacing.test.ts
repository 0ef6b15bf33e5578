// The main thread's share of a token run's index is paced: store rollouts go to the worker pool a
// few hundred at a time, their stand-in rows are written a few hundred at a time and their summaries
// as each worker's message arrives, so what the
// main heap holds at once (and leaves as garbage for V8's next full collection) does not grow with
// the run (docs/benchmarks.md, what grows with a token run).
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { line, tempRun } from "@/lib/testing/temp-store";
import { getRun } from "@/lib/runs/root";
import { summaryRowsOf } from "@/lib/testing/summary";
import type { SummarizeInput } from "@/lib/rollout";

/** Rollouts handed to each summarizeInWorkers call. */
const handed: number[] = [];
vi.mock("./pool", async (importOriginal) => {
  const pool = await importOriginal<typeof import("./pool")>();
  return {
    ...pool,
    summarizeInWorkers: (
      group: string,
      inputs: SummarizeInput[],
      ...rest: Parameters<typeof pool.summarizeInWorkers> extends [unknown, unknown, ...infer R]
        ? R
        : never
    ) => {
      handed.push(inputs.length);
      return pool.summarizeInWorkers(group, inputs, ...rest);
    },
  };
});

const { SummaryIndex } = await import("./run-index");

beforeAll(() => void execFileSync(process.execPath, ["scripts/build-node.mjs"]), 60_000);

/** The bounds the pacing keeps (docs/benchmarks.md): not read from the code under test. */
const MAX_QUEUED = 500;
const MAX_STAND_INS_PER_WRITE = 250;
/** Store summaries a worker sends in one message (lib/index/pool batchesOf), each written at once. */
const MAX_STORE_ROWS_PER_WRITE = 32;
const ROLLOUTS = 1300;

describe("a token run's index is paced", () => {
  it("queues 500 store rollouts at most, writes stand-ins 250 and summaries 32 at a time", async () => {
    const { root } = tempRun(ROLLOUTS);
    const records = Array.from({ length: ROLLOUTS }, (_, i) =>
      line({ _ng_task_index: i, _ng_rollout_index: 0, reward: i % 2 }),
    );
    writeFileSync(path.join(root, "run", "rollouts.jsonl"), records.join(""));
    const db = path.join(mkdtempSync(path.join(os.tmpdir(), "rollout-lens-cache-")), "i.sqlite");
    const index = new SummaryIndex(await getRun("run", root), db);
    const standIns: number[] = [];
    const fromStores: number[] = [];
    const write = index.rows.write.bind(index.rows);
    index.rows.write = (made) => {
      const rows = summaryRowsOf(made);
      const n = rows.filter((r) => r.summary.source === "record").length;
      if (n > 0) standIns.push(n);
      const s = rows.filter((r) => r.summary.source === "store").length;
      if (s > 0) fromStores.push(s);
      write(rows);
    };
    handed.length = 0;
    await index.snapshot({ minIntervalMs: 0, waitMs: 120_000 });
    // Every rollout summarised from its store, each handed to the pool once.
    expect(index.all().filter((s) => s.source === "store")).toHaveLength(ROLLOUTS);
    expect(handed.reduce((a, b) => a + b, 0)).toBe(ROLLOUTS);
    expect(Math.max(...handed)).toBeLessThanOrEqual(MAX_QUEUED);
    // Every rollout stood in from its record first, in writes of a bounded size.
    expect(standIns.reduce((a, b) => a + b, 0)).toBe(ROLLOUTS);
    expect(Math.max(...standIns)).toBeLessThanOrEqual(MAX_STAND_INS_PER_WRITE);
    // Store summaries are written as each worker message arrives, not held across turns.
    expect(fromStores.reduce((a, b) => a + b, 0)).toBe(ROLLOUTS);
    expect(Math.max(...fromStores)).toBeLessThanOrEqual(MAX_STORE_ROWS_PER_WRITE);
    index.close();
  }, 180_000);
});
