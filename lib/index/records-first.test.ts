// Records first: store rollouts with a record get their record's row (source "record")
// before their stores are read, and each is replaced by its store summary, never the other way.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { line, tempRun } from "@/lib/testing/temp-store";
import { getRun } from "@/lib/runs/root";
import { summaryRowsOf } from "@/lib/testing/summary";
import { SummaryIndex } from "./run-index";

// The store rollouts are summarised on the built worker: build it from the current source first.
beforeAll(() => void execFileSync(process.execPath, ["scripts/build-node.mjs"]), 60_000);

const dbIn = () =>
  path.join(mkdtempSync(path.join(os.tmpdir(), "rollout-lens-cache-")), "index.sqlite");

describe("records first", () => {
  it("store rollouts with a record get their record's row before any store is read", async () => {
    const { root } = tempRun(40);
    // Records of 30 of the 40 rollouts; the record of 5-0 says masked (its store says trained).
    const records = Array.from({ length: 30 }, (_, i) =>
      line({
        _ng_task_index: i,
        _ng_rollout_index: 0,
        reward: i,
        mask_sample: i === 5,
        // Records of 20 … 29 carry no capture summary: their token stores are capture enough.
        ...(i < 20 ? { _ng_token_capture: { n_calls: 2, chains: 1, delivered_fraction: 1 } } : {}),
      }),
    );
    writeFileSync(path.join(root, "run", "rollouts.jsonl"), records.join(""));
    const index = new SummaryIndex(await getRun("run", root), dbIn());
    type Seen = [string, string, string, boolean, string];
    const writes: Array<{ rows: Seen[]; progress: string }> = [];
    const write = index.rows.write.bind(index.rows);
    index.rows.write = (made) => {
      const rows = summaryRowsOf(made);
      const seen = rows.map((r): Seen => [
        r.summary.rollout_id,
        r.summary.source,
        r.key,
        r.summary.has_capture,
        r.summary.severity,
      ]);
      write(rows);
      if (seen.length > 0) writes.push({ rows: seen, progress: JSON.stringify(index.progress) });
    };
    await index.snapshot({ minIntervalMs: 0, waitMs: 60_000 });
    // The first write is every recorded rollout, from its record, before any store summary.
    const first = writes[0]!;
    expect(first.rows.map((r) => r[0]).sort()).toEqual(
      Array.from({ length: 30 }, (_, i) => `${i}-0`).sort(),
    );
    expect(new Set(first.rows.map((r) => `${r[1]} ${r[2]}`))).toEqual(
      new Set(["record from-record"]),
    );
    // No stand-in says "no token capture": those without a capture summary have token files.
    expect(first.rows.every((r) => r[3])).toBe(true);
    // Nor "trained" (29 records say so) or "masked" (5-0's): the unread store decides.
    expect(new Set(first.rows.map((r) => r[4]))).toEqual(new Set(["pending"]));
    expect(JSON.parse(first.progress)).toMatchObject({ running: true, done: 0, total: 40 });
    expect(JSON.parse(first.progress).from_records).toBe(30);
    // Then every store summary replaces them: all 40 rows are the store's, none left standing.
    const all = index.all();
    expect(all).toHaveLength(40);
    expect(new Set(all.map((s) => s.source))).toEqual(new Set(["store"]));
    expect(all.find((s) => s.rollout_id === "5-0")?.mask_sample).toBe(false);
    expect(all.filter((s) => s.severity === "pending")).toEqual([]);
    expect(index.progress).toMatchObject({ done: 40, total: 40, from_records: 0 });
    index.close();
  }, 60_000);

  it("past the first chunk of store jobs: no rollout's record row lands after its store row", async () => {
    // 2,500 store rollouts: more than one chunk of worker jobs (lib/index/update's STORE_CHUNK, 2,000).
    // The first chunk's rows stand in before its jobs start, the rest's while the workers read it.
    const n = 2500;
    const { root } = tempRun(n);
    const records = Array.from({ length: n }, (_, i) =>
      line({ _ng_task_index: i, _ng_rollout_index: 0, reward: i, mask_sample: false }),
    );
    writeFileSync(path.join(root, "run", "rollouts.jsonl"), records.join(""));
    const index = new SummaryIndex(await getRun("run", root), dbIn());
    const order: string[] = [];
    const write = index.rows.write.bind(index.rows);
    index.rows.write = (made) => {
      const rows = summaryRowsOf(made);
      for (const r of rows) order.push(`${r.summary.rollout_id} ${r.summary.source}`);
      expect(index.progress.from_records).toBeGreaterThanOrEqual(0);
      write(rows);
    };
    await index.snapshot({ minIntervalMs: 0, waitMs: 120_000 });
    const at = (what: string) => order.indexOf(what);
    for (let i = 0; i < n; i++) {
      expect(at(`${i}-0 record`)).toBeGreaterThanOrEqual(0);
      expect(at(`${i}-0 record`)).toBeLessThan(at(`${i}-0 store`));
    }
    expect(order).toHaveLength(2 * n);
    // Every record row was written before the second chunk's first store row.
    const lastRecord = Math.max(...order.map((o, k) => (o.endsWith(" record") ? k : -1)));
    const storeRows = order.filter((o) => o.endsWith(" store")).length;
    expect(lastRecord).toBeLessThan(order.length - (storeRows - 2000));
    expect(new Set(index.all().map((s) => s.source))).toEqual(new Set(["store"]));
    expect(index.progress).toMatchObject({ done: n, total: n, from_records: 0 });
    index.close();
  }, 120_000);
});
