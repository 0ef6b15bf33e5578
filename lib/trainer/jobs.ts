// The trainer's jobs a store worker thread (lib/inspect/store-worker) runs for the pools of
// lib/rollout/pool: parse one event file or MLflow metric file (./log-files), or check one NeMo-RL
// step file against the capture (./truth-check), or tally one step file's mismatch hotspots
// (./hotspots). Not responsible for when they run or for caching.
import "server-only";
import type { JobContext } from "@/lib/store";
import { runHotspotsStep, type HotspotsStepJob } from "./hotspots";
import { runTrainerFileJob, type TrainerFileJob } from "./log-files";
import { runTruthStep, type TruthStepJob } from "./truth-check";

export type TrainerJob = TrainerFileJob | TruthStepJob | HotspotsStepJob;

export function isTrainerJob(job: { kind: string }): job is TrainerJob {
  return job.kind === "trainer-file" || job.kind === "truth-step" || job.kind === "hotspots-step";
}

export async function runTrainerJob(job: TrainerJob, ctx: JobContext): Promise<unknown> {
  try {
    if (job.kind === "hotspots-step") return await runHotspotsStep(job);
    return job.kind === "truth-step" ? await runTruthStep(job) : await runTrainerFileJob(job, ctx);
  } finally {
    ctx.retireIfHeavy();
  }
}
