// The index's read-ahead: its worker job reads each file through (skipping what is not a regular
// file, never hanging on a FIFO), and the read-ahead keeps at most AHEAD batches ahead of the
// workers, in order, and stops once a batch comes back at page-cache speed.
import { execFileSync } from "node:child_process";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { AHEAD, ReadAhead, type ReadAheadResult } from "./read-ahead";
import { runStoreJob } from "@/lib/rollout/jobs";
import type { SummarizeInput } from "@/lib/rollout/summarize";

const dir = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-ahead-"));
const input = (id: string): SummarizeInput => ({
  rolloutId: id,
  tokensDir: dir,
  modelCallsDir: null,
  profile: "seed",
  record: null,
  bytes: 100,
  hasStoreFiles: true,
  present: ["tokens"],
});
const ctx = {
  progress: () => {},
  phase: () => {},
  transfer: () => {},
  retire: () => {},
  retireIfHeavy: () => {},
};

it("reads every file through and skips what it must not read: a FIFO, a symlink out of the store", async () => {
  writeFileSync(path.join(dir, "a.tokens.jsonl"), "x".repeat(3_000_000));
  writeFileSync(path.join(dir, "b.tokens.jsonl"), "y".repeat(10));
  execFileSync("mkfifo", [path.join(dir, "fifo.tokens.jsonl")]);
  const outside = path.join(mkdtempSync(path.join(os.tmpdir(), "rollout-lens-out-")), "big");
  writeFileSync(outside, "z".repeat(5_000));
  symlinkSync(outside, path.join(dir, "out.tokens.jsonl"));
  const ids = ["a", "fifo", "missing", "out", "b"];
  const files = ids.map((id) => path.join(dir, `${id}.tokens.jsonl`));
  const r = (await runStoreJob({ kind: "read-ahead", files }, ctx)) as ReadAheadResult;
  expect(r.bytes).toBe(3_000_010);
});

/** A runner that records the files of each job and answers when told to. */
function runner(speed: ReadAheadResult) {
  const jobs: string[][] = [];
  const release: Array<() => void> = [];
  return {
    jobs,
    flush: () => (release.splice(0).forEach((r) => r()), new Promise((r) => setTimeout(r, 0))),
    run: <T>(job: unknown): Promise<T> => {
      jobs.push((job as { files: string[] }).files.map((f) => path.basename(f)));
      return new Promise<T>((resolve) => release.push(() => resolve(speed as T)));
    },
  };
}

it("stays at most AHEAD batches ahead of the workers, in order", async () => {
  const batches = Array.from({ length: 10 }, (_, i) => [input(`r${i}`)]);
  const pool = runner({ bytes: 1_000_000, ms: 1_000 }); // a disk's speed: keep going
  const ahead = new ReadAhead(pool, batches);
  for (let k = 0; k < 12; k++) await pool.flush();
  expect(pool.jobs).toHaveLength(AHEAD);
  ahead.batchDone();
  ahead.batchDone();
  for (let k = 0; k < 4; k++) await pool.flush();
  expect(pool.jobs).toHaveLength(AHEAD + 2);
  expect(pool.jobs.flat()).toEqual(
    Array.from({ length: AHEAD + 2 }, (_, i) => `r${i}.tokens.jsonl`),
  );
  ahead.stop();
});

it("stops after a batch read at page-cache speed", async () => {
  const batches = Array.from({ length: 10 }, (_, i) => [input(`r${i}`)]);
  const pool = runner({ bytes: 4_000_000, ms: 1 }); // 4 GB/s: cached
  const ahead = new ReadAhead(pool, batches);
  for (let k = 0; k < 6; k++) ahead.batchDone();
  for (let k = 0; k < 12; k++) await pool.flush();
  expect(pool.jobs).toHaveLength(1);
});
