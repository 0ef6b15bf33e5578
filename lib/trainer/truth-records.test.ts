// The truth check takes each step's rollout ids and records from the summary index's records table,
// never from a whole read of rollouts.jsonl: once the table is synced, the file's bytes are replaced
// by garbage of the same size and mtime (the same file version, so the table stays), and the check
// still joins every planted sample to its rollout. A whole-file read would find no records.
import { mkdtempSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { writeGrpoRuns } from "@/fixtures/generator/grpo";
import { writeNemoRlSteps, type PlantedSample } from "@/fixtures/generator/nemo-rl-steps";
import { getRun } from "@/lib/runs/root";
import { indexFor } from "@/lib/index/run-index";
import { trainerTruth } from "./truth-check";

const RUN = "grpo-capture-on";
const MTIME = 1_786_000_000; // whole seconds, so restoring it gives the same file version
let planted: PlantedSample[] = [];
let root: string;

beforeAll(async () => {
  vi.stubEnv("ROLLOUT_LENS_IO_WORKERS", "0"); // a built worker (dist/) may be older than the source
  vi.stubEnv("ROLLOUT_LENS_CACHE", mkdtempSync(path.join(os.tmpdir(), "rollout-lens-cache-")));
  root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-truth-records-"));
  await writeGrpoRuns(root);
  planted = (await writeNemoRlSteps(root)).planted.filter((p) => p.run === RUN);
}, 60_000);
afterAll(() => void vi.unstubAllEnvs());

it("joins every planted sample from the records table after rollouts.jsonl turns to garbage", async () => {
  const run = await getRun(RUN, root);
  const file = run.rolloutsFile!;
  utimesSync(file, MTIME, MTIME);
  await indexFor(run, root).syncedRecords();
  writeFileSync(file, "x".repeat(statSync(file).size));
  utimesSync(file, MTIME, MTIME);
  const t = await trainerTruth(run);
  expect(planted.length).toBeGreaterThan(0);
  expect(t.totals.samples).toBe(planted.length);
  expect(t.totals.no_capture).toBe(0);
  for (const p of planted) {
    const row = t.samples.find((s) => s.step === p.step && s.idx === p.idx);
    expect(row, `${p.step}/${p.idx}`).toMatchObject({ rollout_id: p.rolloutId, class: p.cls });
  }
}, 60_000);
