// A run's mismatch tally (./tally) in one pass over its train_data_step{N}.jsonl files: each file
// read and tallied on a store worker (lib/trainer/jobs) when the process has one, kept per file
// version, so a run that gains a step file reads only that one. Reads through ../step-data (the
// files stay confined to the run's log directory; a bad line is an issue naming file and line).
import "server-only";
import { processCache } from "@/lib/cache";
import { reviveStoreError, storePool } from "@/lib/rollout";
import { fileState, fileVersion, memoryBudget } from "@/lib/store";
import { eachStepSample, listStepFiles, type StepFile } from "../step-data";
import { addSample, emptyTally, mergeTallies, type Tally } from "./tally";

export interface FileTally {
  tally: Tally;
  issues: string[];
}

/** One step file tallied on a store worker. */
export interface HotspotsStepJob {
  kind: "hotspots-step";
  file: StepFile;
}

/** Reads and tallies one step file, keeping no sample (on whichever thread calls it). */
export async function tallyStepFile(f: StepFile): Promise<FileTally> {
  const tally = emptyTally();
  const issues = await eachStepSample(f, (s) => addSample(tally, s));
  return { tally, issues: issues.map((i) => i.message) };
}

export const runHotspotsStep = (job: HotspotsStepJob) => tallyStepFile(job.file);

const cache = () =>
  processCache<{ key: string; value: Promise<FileTally> }>("trainer-hotspots", "entries", 512);

async function fileTally(f: StepFile): Promise<FileTally> {
  const key = await fileVersion(f.file);
  const hit = cache().get(f.file);
  if (hit?.key === key) return hit.value;
  const value = (async () => {
    const pool = storePool("interactive");
    if (!pool) return tallyStepFile(f);
    const { size } = await fileState(f.file);
    const job: HotspotsStepJob = { kind: "hotspots-step", file: f };
    // The store's memory budget admits a file's worth of parsing at a time, as the truth check's.
    return memoryBudget().run(size, () => pool.run<FileTally>(job, { revive: reviveStoreError }));
  })();
  cache().set(f.file, { key, value });
  value.catch(() => cache().delete(f.file));
  return value;
}

export interface RunTally extends FileTally {
  stepFiles: number;
}

/** The tally of every train step file in `logDir` (none: an empty tally over 0 files). */
export async function runTally(logDir: string | null): Promise<RunTally> {
  const files = logDir ? (await listStepFiles(logDir)).filter((f) => f.kind === "train") : [];
  // With a pool, files go to its workers at once (the budget bounds the memory); inline, one at a
  // time, so no more than one file's lines are in flight on this thread.
  const parts: FileTally[] = [];
  if (storePool("interactive")) parts.push(...(await Promise.all(files.map(fileTally))));
  else for (const f of files) parts.push(await fileTally(f));
  return {
    tally: mergeTallies(parts.map((p) => p.tally)),
    issues: parts.flatMap((p) => p.issues),
    stepFiles: files.length,
  };
}
