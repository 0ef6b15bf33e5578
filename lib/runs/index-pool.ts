// Summarises a run's rollouts for the summary index on store worker threads (lib/store/io-pool):
// one long-lived pool per process (a worker per core, up to 8, each ended after a minute idle),
// shared by every run's index, runs taking turns, each worker taking the next rollout from the
// queue so a slow one never idles the others. A read that stalls past the read deadline costs its worker, not the
// index. The summary cache's integrity check runs there too. Without the built worker (dist/store-worker.mjs: `npm run build`; only tests run without
// it), or for a rollout whose worker failed, the fallback summarises it (./summarize).
import "server-only";
import { existsSync } from "node:fs";
import os from "node:os";
import { StoreWorkerPool } from "@/lib/store/io-pool";
import type { RolloutSummary } from "@/lib/schema";
import { reviveStoreError, storeWorkerScript } from "./build-rollout-pool";
import { cacheDamage } from "./cache-check";
import type { StoreJob } from "./store-jobs";
import type { SummarizeInput } from "./summarize";

const MAX_WORKERS = 8;
const IDLE_MS = 60_000;

export interface PoolStats {
  workers: number;
  inWorkers: number;
  inline: number;
}

// One pool per process, on globalThis so a dev-server module reload starts no other.
const KEY = Symbol.for("rollout-lens.index-pool");
const holder = globalThis as { [KEY]?: StoreWorkerPool };

function indexPool(): StoreWorkerPool | null {
  const existing = holder[KEY];
  if (existing) return existing;
  const script = storeWorkerScript();
  if (!existsSync(script)) return null;
  const size = Math.min(MAX_WORKERS, os.availableParallelism());
  return (holder[KEY] = new StoreWorkerPool(script, {
    size,
    revive: reviveStoreError,
    idleMs: IDLE_MS,
  }));
}

/** Summarises `inputs` (one run's: `group`, so runs indexed at once take turns on the pool). */
export async function summarizeInWorkers(
  group: string,
  inputs: SummarizeInput[],
  accept: (s: RolloutSummary) => void,
  fallback: (i: SummarizeInput) => Promise<RolloutSummary>,
): Promise<PoolStats> {
  const pool = indexPool();
  const stats: PoolStats = { workers: 0, inWorkers: 0, inline: 0 };
  const leftovers: SummarizeInput[] = [];
  await Promise.all(
    inputs.map(async (input) => {
      if (!pool) return void leftovers.push(input);
      try {
        const job: StoreJob = { kind: "summarize", input };
        accept(await pool.run<RolloutSummary>(job, { group, revive: reviveStoreError }));
        stats.inWorkers++;
      } catch {
        // A worker that failed (a crash, a stalled read): its rollout is summarised again below,
        // where a read that still fails becomes the rollout's error row.
        leftovers.push(input);
      }
    }),
  );
  // Workers that summarised this index side by side: the pool's, at most one per rollout.
  stats.workers = pool ? Math.min(inputs.length, pool.capacity) : 0;
  for (const input of leftovers) accept(await fallback(input));
  stats.inline = leftovers.length;
  return stats;
}

/** The summary cache's integrity check (./cache-check) on the index's pool; inline without one. */
export async function checkCacheOffThread(file: string): Promise<string | null> {
  const pool = indexPool();
  if (!pool) return cacheDamage(file);
  const job: StoreJob = { kind: "check-cache", file };
  return pool.run<string | null>(job, { group: `check:${file}`, revive: reviveStoreError });
}
