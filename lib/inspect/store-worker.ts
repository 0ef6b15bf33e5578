// A store worker thread, run as dist/store-worker.mjs (bundled by scripts/build-node.mjs) for the
// pools of lib/store/io/pool: the jobs of lib/runs (read and decide a rollout, summarise one, check
// the summary cache), of the summary index (read a stretch of rollouts.jsonl) and of the inspector
// (build a rollout's model, decide the other profile);
// search's trigrams have a worker of their own (lib/index/search/trigram-worker). Its
// file calls are synchronous and watched, so a read that hangs costs this thread, which its pool
// abandons, and nothing else. It lives here, above lib/runs, because it serves both layers.
import "server-only";
import { serveStoreJobs } from "@/lib/store";
import { classifyStoreError, isStoreJob, runStoreJob } from "@/lib/rollout";
import { isTrainerJob, runTrainerJob } from "@/lib/trainer";
import { isRecordsJob, readRecordRange } from "@/lib/index";
import { isModelJob, runModelJob } from "./model-jobs";

serveStoreJobs(async (request, ctx) => {
  const job = request as { kind: string };
  if (isModelJob(job)) return runModelJob(job, ctx);
  if (isStoreJob(job)) return runStoreJob(job, ctx);
  if (isTrainerJob(job)) return runTrainerJob(job, ctx);
  if (isRecordsJob(job)) return readRecordRange(job);
  throw new Error(`a store worker got a job of unknown kind ${JSON.stringify(job.kind)}`);
}, classifyStoreError);
