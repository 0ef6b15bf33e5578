// Summarises a run's rollouts for the summary index on store worker threads (lib/store/io/pool):
// one long-lived pool per process (a worker per core, up to 8, each ended after a minute idle),
// shared by every run's index, runs taking turns, each worker taking the next rollout from the
// queue so a slow one never idles the others. A read that stalls past the read deadline costs its worker, not the
// index. The summary cache's integrity check runs there too. Without the built worker (dist/store-worker.mjs: `npm run build`; only tests run without
// it), or for a rollout whose worker failed, the fallback summarises it (lib/rollout/summarize).
import "server-only";
import { existsSync } from "node:fs";
import os from "node:os";
import {
  listStore,
  type PackedListing,
  type StoreListing,
  StoreWorkerPool,
  unpackListing,
} from "@/lib/store";
import type { RolloutSummary } from "@/lib/schema";
import {
  reviveStoreError,
  storeWorkerScript,
  cacheDamage,
  type StoreJob,
  type SummarizeInput,
} from "@/lib/rollout";
import { ReadAhead } from "./read-ahead";
import { readRecordRange, type RangeRead, type RecordsJob } from "./record-range";

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

const AHEAD_KEY = Symbol.for("rollout-lens.read-ahead-pool");
const aheadHolder = globalThis as { [AHEAD_KEY]?: StoreWorkerPool };

/** The read-ahead's worker (./read-ahead): one, apart from the index's, ended after a minute idle. */
function readAheadPool(): StoreWorkerPool | null {
  const script = storeWorkerScript();
  if (!existsSync(script)) return null;
  return (aheadHolder[AHEAD_KEY] ??= new StoreWorkerPool(script, {
    size: 1,
    revive: reviveStoreError,
    idleMs: IDLE_MS,
  }));
}

/** Starts the index's workers ahead of its first jobs (they load while the index lists the store). */
export function prestartIndexWorkers(): void {
  indexPool()?.prestart();
  readAheadPool()?.prestart();
}

/**
 * Rollouts a worker summarises per message: a small rollout takes a fraction of a millisecond, and
 * a message each way per rollout left the workers waiting on the round trip about 30% of the time
 * (10,000 rollouts of 30 kB: 5.0 s -> 4.2 s cold). A batch stops at BATCH_BYTES of token files,
 * so large rollouts go one or a few at a time.
 */
const BATCH_ROLLOUTS = 32;
const BATCH_BYTES = 4 << 20;

/** `inputs` in order, cut into batches of at most BATCH_ROLLOUTS and about BATCH_BYTES. */
export function batchesOf(inputs: readonly SummarizeInput[]): SummarizeInput[][] {
  const batches: SummarizeInput[][] = [];
  let batch: SummarizeInput[] = [];
  let bytes = 0;
  for (const input of inputs) {
    if (batch.length > 0 && (batch.length >= BATCH_ROLLOUTS || bytes + input.bytes > BATCH_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(input);
    bytes += input.bytes;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * Summarises `inputs` (one run's: `group`, so runs indexed at once take turns on the pool); `accept`
 * is given each worker message's summaries together, in the turn of the event loop they arrive.
 */
export async function summarizeInWorkers(
  group: string,
  inputs: SummarizeInput[],
  accept: (summaries: RolloutSummary[]) => void,
  fallback: (i: SummarizeInput) => Promise<RolloutSummary>,
): Promise<PoolStats> {
  const pool = indexPool();
  const stats: PoolStats = { workers: 0, inWorkers: 0, inline: 0 };
  const leftovers: SummarizeInput[] = [];
  const batches = batchesOf(inputs);
  const aheadPool = pool ? readAheadPool() : null;
  const ahead = aheadPool && batches.length > 1 ? new ReadAhead(aheadPool, batches) : null;
  await Promise.all(
    batches.map(async (batch) => {
      if (!pool) return void leftovers.push(...batch);
      try {
        const job: StoreJob = { kind: "summarize", inputs: batch };
        const summaries = await pool.run<RolloutSummary[]>(job, {
          group,
          revive: reviveStoreError,
        });
        accept(summaries);
        stats.inWorkers += summaries.length;
      } catch {
        // A worker that failed (a crash, a stalled read): its batch is summarised again below,
        // where a read that still fails becomes that rollout's error row.
        leftovers.push(...batch);
      } finally {
        ahead?.batchDone();
      }
    }),
  );
  ahead?.stop();
  // Workers that summarised this index side by side: the pool's, at most one per rollout.
  stats.workers = pool ? Math.min(inputs.length, pool.capacity) : 0;
  for (const input of leftovers) accept([await fallback(input)]);
  stats.inline = leftovers.length;
  return stats;
}

/**
 * Stretches of rollouts.jsonl read on the index's pool (./record-range), each handed to `onRange`
 * in the file's order, in the turn of the event loop it arrives. At most one stretch is read ahead
 * of the one being written (it waits in this thread's heap), so two workers read at once. On 2
 * cores, two workers indexed 1M records in 32-38 s at a 429-444 MB peak; one alone, leaving a core
 * to this thread's writes, took 36-51 s at 374-381 MB (docs/benchmarks.md). The first stretch is
 * read on this thread (rows show while the workers start); so is every stretch without a pool (or
 * not asked to use it: `workers`), or whose worker failed. A read that fails rejects.
 */
const AHEAD = 1;

export async function readRecordRanges(
  jobs: readonly RecordsJob[],
  onRange: (read: RangeRead, job: RecordsJob) => void,
  workers = true,
): Promise<void> {
  const pool = workers ? indexPool() : null;
  const reads = new Map<number, Promise<RangeRead>>();
  let next = 0;
  let busy = 0;
  let written = 0;
  const launch = () => {
    while (next < jobs.length && next <= written + AHEAD && (!pool || busy < pool.capacity)) {
      const job = jobs[next] as RecordsJob;
      let read: Promise<RangeRead>;
      if (!pool || next === 0) read = readRecordRange(job);
      else {
        busy++;
        read = pool
          .run<RangeRead>(job, { group: `records:${job.file}`, revive: reviveStoreError })
          .catch(() => readRecordRange(job))
          .finally(() => (busy--, launch()));
      }
      read.catch(() => undefined); // awaited in order below; one that fails ends the read there
      reads.set(next++, read);
    }
  };
  for (const [i, job] of jobs.entries()) {
    launch();
    const read = await (reads.get(i) as Promise<RangeRead>);
    reads.delete(i);
    onRange(read, job);
    written = i + 1;
  }
}

/** The summary cache's integrity check (./cache-check) on the index's pool; inline without one. */
export async function checkCacheOffThread(file: string): Promise<string | null> {
  const pool = indexPool();
  if (!pool) return cacheDamage(file);
  const job: StoreJob = { kind: "check-cache", file };
  return pool.run<string | null>(job, { group: `check:${file}`, revive: reviveStoreError });
}

/**
 * A store directory listed with every file's stat (lib/store/files) on the index's pool, so the
 * server's thread stays free for pages while a large store is listed; inline without a pool.
 * It crosses as flat arrays (lib/store ListedRollouts), not an object per file.
 */
export async function listStoreOffThread(dir: string): Promise<StoreListing> {
  const pool = indexPool();
  if (!pool) return listStore(dir, { stat: true });
  const job: StoreJob = { kind: "list", dir };
  const packed = await pool.run<PackedListing>(job, {
    group: `list:${dir}`,
    revive: reviveStoreError,
  });
  return unpackListing(packed);
}
