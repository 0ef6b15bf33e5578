// Records first while rollouts.jsonl is read: a first index of a run without a store writes rows
// from the records already in the table, says how much of the file is read, and ends with every
// rollout's row written once (an attempt group found later in the file summarised again).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { line } from "@/lib/testing/temp-store";
import { FOLLOW_FROM } from "./records-follow";
import { getRun } from "@/lib/runs/root";
import { SummaryIndex } from "./run-index";

const tmp = (p: string) => mkdtempSync(path.join(os.tmpdir(), p));

describe("rows while rollouts.jsonl is read", () => {
  it("come from the records read so far, and every rollout's row is written once", async () => {
    const n = 5 * FOLLOW_FROM;
    const root = tmp("rollout-lens-follow-");
    mkdirSync(path.join(root, "run"));
    const records = Array.from({ length: n }, (_, i) =>
      line({ _ng_task_index: i, _ng_rollout_index: 0, reward: i % 7, mask_sample: i % 9 === 0 }),
    );
    // Near the end, an attempt of rollout 3-0 (its group is found only there) and 3-0 itself again.
    records.push(line({ _ng_rollout_id: "3-0-a1", _ng_task_index: 3, reward: 1 }));
    writeFileSync(path.join(root, "run", "rollouts.jsonl"), records.join(""));
    const index = new SummaryIndex(await getRun("run", root), path.join(tmp("rl-db-"), "i.sqlite"));
    const writes: Array<{ ids: string[]; read: number | null; total: number }> = [];
    const write = index.rows.write.bind(index.rows);
    index.rows.write = (rows) => {
      write(rows);
      const p = index.progress;
      writes.push({
        ids: rows.map((r) => r.summary.rollout_id),
        read: p.records_read,
        total: p.total,
      });
    };
    await index.snapshot({ minIntervalMs: 0, waitMs: 120_000 });

    // The first rows were written while the file was still being read, from the records read.
    const first = writes[0]!;
    expect(first.read).not.toBeNull();
    expect(first.read!).toBeLessThan(1);
    expect(first.total).toBeGreaterThanOrEqual(FOLLOW_FROM);
    expect(first.total).toBeLessThan(n);
    // Every rollout has its row; only 3-0 (now an attempt group's base) was written twice.
    const times = new Map<string, number>();
    for (const w of writes) for (const id of w.ids) times.set(id, (times.get(id) ?? 0) + 1);
    expect(times.size).toBe(n + 1);
    expect([...times].filter(([, k]) => k > 1).map(([id]) => id)).toEqual(["3-0"]);
    const attempts = index.all().find((s) => s.rollout_id === "3-0")?.lifecycle.attempts ?? [];
    expect(attempts.map((a) => a.rollout_id)).toEqual(["3-0", "3-0-a1"]);
    expect(index.progress).toMatchObject({ running: false, records_read: null });
    index.close();
  }, 120_000);
});
