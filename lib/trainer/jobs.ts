// The trainer's jobs a store worker thread (lib/inspect/store-worker) runs for the pools of
// lib/rollout/pool: parse one event file or MLflow metric file (./log-files), or check one NeMo-RL
// step file against the capture (./truth-check). Not responsible for when they run or for caching.
import "server-only";
import { getHeapStatistics } from "node:v8";
import type { JobContext } from "@/lib/store";
import { runTrainerFileJob, type TrainerFileJob } from "./log-files";
import { runTruthStep, type TruthStepJob } from "./truth-check";

export type TrainerJob = TrainerFileJob | TruthStepJob;

export function isTrainerJob(job: { kind: string }): job is TrainerJob {
  return job.kind === "trainer-file" || job.kind === "truth-step";
}

/** A worker whose heap is past this after a job is ended (its memory freed) rather than reused. */
const RETIRE_HEAP_BYTES = 256 * 2 ** 20;

export async function runTrainerJob(job: TrainerJob, ctx: JobContext): Promise<unknown> {
  try {
    return job.kind === "truth-step" ? await runTruthStep(job) : await runTrainerFileJob(job, ctx);
  } finally {
    if (getHeapStatistics().used_heap_size > RETIRE_HEAP_BYTES) ctx.retire();
  }
}
