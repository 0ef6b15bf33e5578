// rollouts.jsonl read in stretches on the index's worker threads (./record-range, ./pool
// readRecordRanges): a file of many stretches with damaged lines gives the records and the read
// state the test wrote into it (line numbers as in the whole file, the last record of an id kept,
// the torn tail told apart), and a records-only run's rows, made on the workers, hold each record's
// values. Only the first stretch is read on this thread when the workers are there.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { line } from "@/lib/testing/temp-store";
import { getRun } from "@/lib/runs/root";

/** Stretches read on this thread. */
let inline = 0;
vi.mock("./record-range", async (importOriginal) => {
  const mod = await importOriginal<typeof import("./record-range")>();
  return {
    ...mod,
    readRecordRange: (job: Parameters<typeof mod.readRecordRange>[0]) => {
      inline++;
      return mod.readRecordRange(job);
    },
  };
});

const { syncRecords } = await import("./record-rows");
const { SummaryRows } = await import("./rows");
const { SummaryIndex } = await import("./run-index");

beforeAll(() => void execFileSync(process.execPath, ["scripts/build-node.mjs"]), 60_000);

const tmp = (p: string) => mkdtempSync(path.join(os.tmpdir(), p));
const pad = (i: number) => "n".repeat(200 + ((i * 53) % 300));

describe("rollouts.jsonl read in stretches on the workers", () => {
  it("keeps every record and numbers every unreadable line as in the whole file", async () => {
    const lines: string[] = [];
    const unreadable = new Map<number, RegExp>();
    const reward = new Map<string, number>();
    for (let i = 0; i < 6000; i++) {
      const n = i + 1;
      if (i % 401 === 7) {
        lines.push("{not json\n");
        unreadable.set(n, /not valid JSON/);
      } else if (i % 509 === 3) {
        lines.push(line({ _ng_task_index: "x", note: pad(i) }));
        unreadable.set(n, /_ng_task_index/);
      } else if (i === 1234) {
        lines.push("\0\0\0\0\n");
        unreadable.set(n, /NUL/);
      } else if (i % 97 === 0) lines.push("\n");
      else {
        // Line 5000 rewrites rollout 10-0: the later record is the one kept.
        const task = i === 4999 ? 10 : i;
        lines.push(line({ _ng_task_index: task, _ng_rollout_index: 0, reward: i, note: pad(i) }));
        reward.set(`${task}-0`, i);
      }
    }
    lines.push('{"_ng_task_index": 99999, "rew'); // a write in progress
    const file = path.join(tmp("rollout-lens-ranges-"), "rollouts.jsonl");
    writeFileSync(file, lines.join(""));
    const rows = new SummaryRows(null);
    inline = 0;
    const state = await syncRecords(() => rows.handle, file);
    expect(state.readError).toBeNull();
    expect(state.unreadableCount).toBe(unreadable.size);
    expect(state.unreadable.map((u) => u.line)).toEqual([...unreadable.keys()]);
    for (const u of state.unreadable) expect(u.reason).toMatch(unreadable.get(u.line) as RegExp);
    expect(state).toMatchObject({ tornTail: true, tornLine: 6001 });
    const stored = rows.handle.prepare("SELECT id, record FROM records").all() as Array<{
      id: string;
      record: string;
    }>;
    expect(new Map(stored.map((r) => [r.id, JSON.parse(r.record).reward]))).toEqual(reward);
    // Some 3 MB: a dozen stretches, all but the first read on the workers.
    expect(inline).toBe(1);
  }, 120_000);

  it("makes a records-only run's rows on the workers, each with its record's values", async () => {
    const root = tmp("rollout-lens-ranges-run-");
    mkdirSync(path.join(root, "run"));
    const n = 12_000; // past FOLLOW_FROM: rows are made as the file is read
    const records = Array.from({ length: n }, (_, i) =>
      line({ _ng_task_index: i, _ng_rollout_index: 0, reward: i % 11, mask_sample: i % 7 === 0 }),
    );
    writeFileSync(path.join(root, "run", "rollouts.jsonl"), records.join(""));
    const index = new SummaryIndex(await getRun("run", root), path.join(tmp("rl-db-"), "i.db"));
    inline = 0;
    await index.snapshot({ minIntervalMs: 0, waitMs: 120_000 });
    const all = index.all();
    expect(all).toHaveLength(n);
    for (const s of all) {
      const i = Number(s.rollout_id.split("-")[0]);
      expect([s.source, s.reward, s.mask_sample]).toEqual(["record", i % 11, i % 7 === 0]);
    }
    expect(inline).toBe(1);
    index.close();
  }, 120_000);
});
