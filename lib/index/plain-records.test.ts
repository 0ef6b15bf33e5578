// Records first, and kept out of memory: a run of records alone is indexed from its records, an
// edited rollouts.jsonl re-summarises only the records that changed and drops the ones removed,
// attempt groups keep their lifecycle, and an unchanged run is not keyed again. A plain record's
// SQL key is the key lib/index/keys gives it.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { line } from "@/lib/testing/temp-store";
import { getRun } from "@/lib/runs/root";
import { SummaryIndex } from "./run-index";
import { keyOf, plainKeyPrefix, runRollouts } from "./keys";
import { PLAIN_KEY_SUFFIX } from "./plain-records";

const rec = (task: number, reward: number, attempt?: number) => ({
  _ng_task_index: task,
  _ng_rollout_index: 0,
  ...(attempt ? { _ng_attempt_index: attempt } : {}),
  reward,
  step: task,
  _ng_token_capture: { n_calls: 2, chains: 1, delivered_fraction: 1 },
});

describe("plain records", () => {
  it("are keyed in SQL as summary-keys keys them", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-plain-"));
    mkdirSync(path.join(root, "run"));
    const run = await getRun("run", root);
    const r = runRollouts(run, null, null, ["5-0"]);
    expect(keyOf(r, "5-0", "abc")).toBe(`${plainKeyPrefix(run)}abc${PLAIN_KEY_SUFFIX}`);
  });

  it("are indexed first, re-summarised only where the file changed, and dropped when gone", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-plain-"));
    mkdirSync(path.join(root, "run"));
    const file = path.join(root, "run", "rollouts.jsonl");
    const records = [rec(0, 1), rec(1, 0), rec(2, 1), rec(2, 0, 1), rec(3, 1)];
    writeFileSync(file, records.map(line).join(""));
    const db = path.join(mkdtempSync(path.join(os.tmpdir(), "rollout-lens-plain-db-")), "i.sqlite");
    const index = new SummaryIndex(await getRun("run", root), db);
    let snap = await index.snapshot({ minIntervalMs: 0 });
    expect(snap.progress).toMatchObject({ done: 5, total: 5, running: false });
    const all = index.all();
    expect(all.map((s) => [s.rollout_id, s.source, s.reward])).toEqual([
      ["0-0", "record", 1],
      ["1-0", "record", 0],
      ["2-0", "record", 1],
      ["2-0-a1", "record", 0],
      ["3-0", "record", 1],
    ]);
    expect(all[2]?.lifecycle.attempts.map((a) => a.rollout_id)).toEqual(["2-0", "2-0-a1"]);
    snap = await index.snapshot({ minIntervalMs: 0 }); // nothing changed: nothing keyed again
    expect(snap.progress).toMatchObject({ done: 0, total: 0 });

    // 1-0's reward changes, 3-0 goes: one row re-summarised, one dropped.
    const edited = [rec(0, 1), rec(1, 1), rec(2, 1), rec(2, 0, 1)];
    writeFileSync(file, edited.map(line).join("") + " ");
    snap = await index.snapshot({ minIntervalMs: 0 });
    expect(snap.progress).toMatchObject({ done: 1, total: 1 });
    expect(index.all().map((s) => [s.rollout_id, s.reward])).toEqual([
      ["0-0", 1],
      ["1-0", 1],
      ["2-0", 1],
      ["2-0-a1", 0],
    ]);
    index.close();
  });
});
