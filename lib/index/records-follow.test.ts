// Records first while rollouts.jsonl is read: a first index of a run without a store writes rows
// from the records as they are read, says how much of the file is read, and ends with every
// rollout's row written once (an attempt group found later in the file summarised again). Its
// progress is one count that only moves forward and reaches its total only when the index ends.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { IndexProgress } from "@/lib/schema";
import { line } from "@/lib/testing/temp-store";
import { getRun } from "@/lib/runs/root";
import { syncRecords } from "./record-rows";
import { SummaryRows } from "./rows";
import { idOfRow } from "./columns";
import { SummaryIndex } from "./run-index";

const tmp = (p: string) => mkdtempSync(path.join(os.tmpdir(), p));

/**
 * A records-only run of `n` records (`pad` bytes of notes each), then an attempt of 3-0 (its group
 * is found only there).
 */
async function recordsRun(n: number, pad = 0): Promise<SummaryIndex> {
  const root = tmp("rollout-lens-follow-");
  mkdirSync(path.join(root, "run"));
  const note = pad > 0 ? { note: "x".repeat(pad) } : {};
  const records = Array.from({ length: n }, (_, i) =>
    line({
      _ng_task_index: i,
      _ng_rollout_index: 0,
      reward: i % 7,
      mask_sample: i % 9 === 0,
      ...note,
    }),
  );
  records.push(line({ _ng_rollout_id: "3-0-a1", _ng_task_index: 3, reward: 1 }));
  writeFileSync(path.join(root, "run", "rollouts.jsonl"), records.join(""));
  return new SummaryIndex(await getRun("run", root), path.join(tmp("rl-db-"), "i.sqlite"));
}

describe("rows while rollouts.jsonl is read", () => {
  it("come from the records read so far, and every rollout's row is written once", async () => {
    const n = 10_000; // FOLLOW_FROM: rows are written as the file is read from this many lines
    const index = await recordsRun(n);
    const writes: Array<{ ids: string[]; read: number | null; total: number }> = [];
    const write = index.rows.write.bind(index.rows);
    index.rows.write = (rows) => {
      write(rows);
      const p = index.progress;
      writes.push({
        ids: rows.map(idOfRow),
        read: p.records_read,
        total: p.total,
      });
    };
    await index.snapshot({ minIntervalMs: 0, waitMs: 120_000 });

    // The first rows were written while the file was still being read, against all its lines.
    const first = writes[0]!;
    expect(first.read).not.toBeNull();
    expect(first.read!).toBeLessThan(1);
    expect(first.total).toBe(n + 1);
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

  it("progress only moves forward, and reaches its total only when the index ends", async () => {
    // Many of the reader's batches (some 600 records of 450 bytes each; the reader lets the event
    // loop through between its chunks, where a page's poll is answered): chances to slip back.
    const n = 24_000;
    const index = await recordsRun(n, 400);
    const seen: IndexProgress[] = [];
    let over = false;
    const done = index.snapshot({ minIntervalMs: 0, waitMs: 120_000 }).finally(() => (over = true));
    // Sampled as a page polls it, every turn of the event loop while the index runs.
    while (!over) {
      seen.push((await index.snapshot({ waitMs: 0 })).progress);
      await new Promise((r) => setImmediate(r));
    }
    await done;
    const last = (await index.snapshot({ waitMs: 0 })).progress;
    const running = seen.filter((p) => p.running && p.total > 0);
    // Several updates were seen (the test would pass vacuously on one).
    expect(new Set(running.map((p) => p.done)).size).toBeGreaterThan(5);
    for (let i = 1; i < running.length; i++) {
      const [a, b] = [running[i - 1]!, running[i]!];
      expect(b.done).toBeGreaterThanOrEqual(a.done);
      expect(b.total).toBeGreaterThanOrEqual(a.total);
      expect(b.done / b.total).toBeGreaterThanOrEqual(a.done / a.total);
    }
    for (const p of running) expect(p.done).toBeLessThan(p.total);
    // Its total was the file's lines from the first look on; at the end every line is done.
    expect(new Set(running.map((p) => p.total))).toEqual(new Set([n + 1]));
    expect(last).toMatchObject({ running: false, done: n + 1, total: n + 1 });
    expect(index.count()).toBe(n + 1);
    index.close();
  }, 120_000);

  it("a batch holds no more than a stretch's bytes, written and dropped within a turn", async () => {
    // 3,000 records of about a kilobyte: by count alone (500, then 2,000) a batch held 2 MB, over
    // several turns of the event loop, long enough for V8 to move it to the old generation.
    const file = path.join(tmp("rollout-lens-batch-"), "rollouts.jsonl");
    const lines = Array.from({ length: 3000 }, (_, i) =>
      line({ _ng_task_index: i, _ng_rollout_index: 0, reward: 1, note: "y".repeat(950) }),
    );
    writeFileSync(file, lines.join(""));
    // Each line's bytes as the reader counts them: without its newline.
    const bytesOf = new Map(lines.map((l, i) => [`${i}-0`, Buffer.byteLength(l) - 1]));
    const longest = Math.max(...bytesOf.values());
    const rows = new SummaryRows(null);
    const batches: number[] = [];
    await syncRecords(
      () => rows.handle,
      file,
      (read) => void batches.push(read.batch.reduce((n, b) => n + (bytesOf.get(b.id) ?? NaN), 0)),
    );
    // A stretch is 128 kB (record-rows RECORDS_RANGE), cut at the line start that passes it.
    for (const bytes of batches) expect(bytes).toBeLessThanOrEqual((128 << 10) + longest);
    expect(batches.length).toBeGreaterThanOrEqual(Math.ceil((3000 * 1000) / (128 << 10)));
    expect(rows.handle.prepare("SELECT COUNT(*) FROM records").pluck().get()).toBe(3000);
  }, 60_000);
});
