// The trigram worker thread, run as dist/trigram-worker.mjs (bundled by scripts/build-node.mjs)
// for the "trigrams" lane's pool (lib/rollout/pool): it writes search's trigrams (./indexer) and
// nothing else, so it loads only what that needs, not the store worker's every job.
import "server-only";
import { serveStoreJobs } from "@/lib/store";
import { isSearchJob, runSearchJob } from "./indexer";

serveStoreJobs(async (request) => {
  const job = request as { kind: string };
  if (isSearchJob(job)) return runSearchJob(job);
  throw new Error(`the trigram worker got a job of kind ${JSON.stringify(job.kind)}`);
});
