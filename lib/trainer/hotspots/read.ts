// A run's mismatch tally (./tally) in one pass over its train_data_step{N}.jsonl files, kept per
// version of the files: each file read and tallied on a store worker (lib/trainer/jobs) when the
// process has one, else one after another on this thread. Reads through ../step-data (the
// files stay confined to the run's log directory; a bad line is an issue naming file and line).
import "server-only";
import { processCache } from "@/lib/cache";
import { reviveStoreError, storePool } from "@/lib/rollout";
import { fileState, fileVersion, memoryBudget, type StoreWorkerPool } from "@/lib/store";
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

/** Reads one step file into `tally`, keeping no sample (on whichever thread calls it). */
export async function tallyStepFile(f: StepFile, tally = emptyTally()): Promise<FileTally> {
  const issues = await eachStepSample(f, (s) => addSample(tally, s));
  return { tally, issues: issues.map((i) => i.message) };
}

export const runHotspotsStep = (job: HotspotsStepJob) => tallyStepFile(job.file);

/** Per file on the pool: a run that gains a step file sends only that one to a worker. */

const cache = () =>
  processCache<{ key: string; value: Promise<FileTally> }>("trainer-hotspots", "entries", 512);

async function fileTally(f: StepFile, pool: StoreWorkerPool): Promise<FileTally> {
  const key = await fileVersion(f.file);
  const hit = cache().get(f.file);
  if (hit?.key === key) return hit.value;
  const value = (async () => {
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

const runCache = () =>
  processCache<{ key: string; value: Promise<RunTally> }>("trainer-hotspots-runs", "entries", 32);

async function computeRunTally(files: StepFile[]): Promise<RunTally> {
  const pool = storePool("interactive");
  if (pool) {
    // All files go to the workers at once; the memory budget bounds how many parse together.
    const parts = await Promise.all(files.map((f) => fileTally(f, pool)));
    const tally = mergeTallies(parts.map((p) => p.tally));
    return { tally, issues: parts.flatMap((p) => p.issues), stepFiles: files.length };
  }
  // Inline: one file at a time into one tally, so nothing is merged and one file is in flight.
  const tally = emptyTally();
  const issues: string[] = [];
  for (const f of files) issues.push(...(await tallyStepFile(f, tally)).issues);
  return { tally, issues, stepFiles: files.length };
}

/**
 * The tally of every train step file in `logDir` (none: an empty tally over 0 files), kept until
 * one of the files changes (their sizes and mtimes, lib/store fileVersion).
 */
export async function runTally(logDir: string | null): Promise<RunTally> {
  const files = logDir ? (await listStepFiles(logDir)).filter((f) => f.kind === "train") : [];
  if (!logDir || files.length === 0) return { tally: emptyTally(), issues: [], stepFiles: 0 };
  const key = (await Promise.all(files.map((f) => fileVersion(f.file)))).join(",");
  const hit = runCache().get(logDir);
  if (hit?.key === key) return hit.value;
  const value = computeRunTally(files);
  runCache().set(logDir, { key, value });
  value.catch(() => runCache().delete(logDir));
  return value;
}
