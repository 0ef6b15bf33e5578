// The inspector takes a rollout's record from the summary index's records table, by id, never from
// a whole read of rollouts.jsonl (a million records is 347 MB): after the table is synced the
// file's bytes are replaced by garbage of the same size and mtime (the same file version), so a
// whole-file read would find no record, while the table still answers. An unreadable
// rollouts.jsonl still costs the view its record with an issue saying why, and a rollout known
// only by its record still builds, the other profile's decision included.
import { mkdirSync, mkdtempSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { recordOf } from "@/lib/index/records-sql";
import { getRun } from "@/lib/runs/root";
import { line, tokenRecord } from "@/lib/testing/temp-store";
import { inspectRollout } from "./rollout-model";

const RECORDS = 5000;
/** Fixture truth: what the generator wrote for task `i` (one rollout per task). */
const rewardOf = (i: number) => (i % 13) / 8;
const stepOf = (i: number) => Math.floor(i / 250);
const MTIME = 1_786_000_000; // whole seconds, so restoring it gives the same file version

let root: string;
/** The bytes of the "many" run's rollouts.jsonl. */
let size = 0;

function makeRun(id: string, records: string | { link: string }, tokenIds: number[]): void {
  const dir = path.join(root, id);
  mkdirSync(path.join(dir, "tokens"), { recursive: true });
  for (const t of tokenIds) {
    const rid = `${t}-0`;
    writeFileSync(
      path.join(dir, "tokens", `${rid}.tokens.jsonl`),
      line(tokenRecord(rid, "a", [1, 2, 3], [4, 5])) +
        line(tokenRecord(rid, "b", [1, 2, 3, 4, 5], [6])),
    );
  }
  const file = path.join(dir, "rollouts.jsonl");
  if (typeof records !== "string") return symlinkSync(records.link, file);
  writeFileSync(file, records);
  utimesSync(file, MTIME, MTIME);
}

beforeAll(() => {
  vi.stubEnv("ROLLOUT_LENS_IO_WORKERS", "0"); // a built worker (dist/) may be older than the source
  root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-records-"));
  vi.stubEnv("ROLLOUT_LENS_RUNS", root);
  vi.stubEnv("ROLLOUT_LENS_CACHE", mkdtempSync(path.join(os.tmpdir(), "rollout-lens-cache-")));
  vi.stubEnv("ROLLOUT_LENS_ALLOW_PATHS", "/proc"); // where the EIO link leads
  let records = "";
  for (let i = 0; i < RECORDS; i++)
    records += line({
      _ng_task_index: i,
      _ng_rollout_index: 0,
      reward: rewardOf(i),
      step: stepOf(i),
    });
  size = Buffer.byteLength(records);
  makeRun("many", records, [0, 1234, 4999]);
  makeRun("eio", { link: "/proc/self/mem" }, [0]);
  makeRun("dir", "", [0]);
  mkdirSync(path.join(root, "dir", "records"));
  writeFileSync(
    path.join(root, "dir", "run.json"),
    JSON.stringify({ paths: { rollouts: "records" } }),
  );
});
afterAll(() => void vi.unstubAllEnvs());

describe("the inspector's record of one rollout", () => {
  it("comes from the records table by id, not from a whole read of rollouts.jsonl", async () => {
    const run = await getRun("many", root);
    const file = run.rolloutsFile!;
    // The table at the file's version (what the run's index holds once it has read the run).
    expect((await recordOf(run, "1234-0")).record).toMatchObject({ reward: rewardOf(1234) });
    writeFileSync(file, "x".repeat(size));
    utimesSync(file, MTIME, MTIME);
    for (const i of [1234, 4999]) {
      const { view } = await inspectRollout(run, `${i}-0`);
      expect(view.record).toMatchObject({ reward: rewardOf(i), step: stepOf(i) });
      expect(view.read.issues.filter((x) => x.file === "rollouts.jsonl")).toEqual([]);
    }
  });

  it("of a rollout known only by its record builds, the other profile decided too", async () => {
    const run = await getRun("many", root);
    const { view } = await inspectRollout(run, "77-0", { other: "decide" });
    expect(view.record).toMatchObject({ reward: rewardOf(77), step: stepOf(77) });
    expect(view.read.token_file).toBe(false);
    expect(view.other_profile).not.toBeNull();
  });

  it("is missing with an issue saying why when rollouts.jsonl cannot be read", async () => {
    const run = await getRun("eio", root);
    const { view } = await inspectRollout(run, "0-0");
    expect(view.record).toBeNull();
    const issues = view.read.issues.filter((x) => x.file === "rollouts.jsonl");
    expect(issues).toEqual([
      {
        file: "rollouts.jsonl",
        line: null,
        severity: "error",
        message: expect.stringMatching(
          /^rollouts\.jsonl: EIO: .*: the rollout's record \(reward, step\) could not be read$/,
        ),
      },
    ]);
  });

  it("is missing with an issue when run.json names a directory for rollouts.jsonl", async () => {
    const run = await getRun("dir", root);
    const { view } = await inspectRollout(run, "0-0");
    expect(view.record).toBeNull();
    expect(view.read.issues.filter((x) => x.file === "rollouts.jsonl")).toEqual([
      {
        file: "rollouts.jsonl",
        line: null,
        severity: "error",
        message:
          "records: not a regular file (a directory, FIFO or device); refused: the rollout's record (reward, step) could not be read",
      },
    ]);
  });
});
