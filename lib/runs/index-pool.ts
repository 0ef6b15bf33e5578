// Summarises many rollouts on store worker threads (lib/store/io-pool), one per core, each taking
// the next rollout from a shared queue so a slow rollout never idles the others. Workers run the
// built dist/store-worker.mjs (`npm run build` makes it from ./store-worker.ts); a read that stalls
// past the read deadline costs its worker, not the index. Without the worker script, or for a
// rollout whose worker failed, the fallback summarises it (on the inspector's pool, ./summarize).
import "server-only";
import { existsSync } from "node:fs";
import os from "node:os";
import { StoreWorkerPool } from "@/lib/store/io-pool";
import type { RolloutSummary } from "@/lib/schema";
import { reviveStoreError, storeWorkerScript } from "./build-rollout-pool";
import type { StoreJob } from "./store-worker";
import type { SummarizeInput } from "./summarize";

/** The built worker the index runs (kept under this name for the index's callers and tests). */
export const workerScript = storeWorkerScript;

export interface PoolStats {
  workers: number;
  inWorkers: number;
  inline: number;
}

export async function summarizeInWorkers(
  inputs: SummarizeInput[],
  accept: (s: RolloutSummary) => void,
  fallback: (i: SummarizeInput) => Promise<RolloutSummary>,
): Promise<PoolStats> {
  const stats: PoolStats = { workers: 0, inWorkers: 0, inline: 0 };
  const script = workerScript();
  const size = Math.min(os.availableParallelism(), inputs.length);
  const pool =
    size > 0 && existsSync(script)
      ? new StoreWorkerPool(script, { size, revive: reviveStoreError })
      : null;
  const leftovers: SummarizeInput[] = [];
  try {
    await Promise.all(
      inputs.map(async (input) => {
        if (!pool) return void leftovers.push(input);
        try {
          const job: StoreJob = { kind: "summarize", input };
          accept(await pool.run<RolloutSummary>(job));
          stats.inWorkers++;
        } catch {
          // A worker that failed (a crash, a stalled read): its rollout is summarised again below,
          // where a read that still fails becomes the rollout's error row.
          leftovers.push(input);
        }
      }),
    );
  } finally {
    stats.workers = pool?.started ?? 0;
    pool?.close();
  }
  for (const input of leftovers) accept(await fallback(input));
  stats.inline = leftovers.length;
  return stats;
}
