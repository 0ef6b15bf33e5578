// Summarises many rollouts on worker threads, one per core, pulling chunks from a shared queue so
// a slow rollout never idles the others. Workers run lib/runs/index-worker.mjs (TypeScript through
// tsx); if they cannot start, the work is done in this thread instead.
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { RolloutSummary, SummarizeInput } from "./summarize";

const CHUNK = 32;

type Reply = { summary: RolloutSummary } | { chunkDone: true } | { fatal: string };

export interface PoolStats {
  workers: number;
  inWorkers: number;
  inline: number;
}

export async function summarizeInWorkers(inputs: SummarizeInput[], accept: (s: RolloutSummary) => void, fallback: (i: SummarizeInput) => Promise<RolloutSummary>): Promise<PoolStats> {
  const stats: PoolStats = { workers: 0, inWorkers: 0, inline: 0 };
  const chunks: SummarizeInput[][] = [];
  for (let i = 0; i < inputs.length; i += CHUNK) chunks.push(inputs.slice(i, i + CHUNK));
  const count = Math.max(1, Math.min(os.availableParallelism(), chunks.length));
  const script = path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "runs", "index-worker.mjs");
  const leftovers: SummarizeInput[] = [];
  await Promise.all(
    Array.from({ length: count }, () =>
      new Promise<void>((resolve) => {
        let current: SummarizeInput[] | null = null;
        let worker: Worker;
        try {
          worker = new Worker(script, { execArgv: [] }); // the worker registers tsx itself; inherited loader flags can deadlock it
          stats.workers++;
        } catch {
          resolve();
          return;
        }
        const next = () => {
          current = chunks.shift() ?? null;
          if (current) worker.postMessage(current);
          else void worker.terminate().then(() => resolve());
        };
        worker.on("message", (m: Reply) => {
          if ("summary" in m) {
            stats.inWorkers++;
            accept(m.summary);
            if (current) current = current.filter((c) => c.rolloutId !== m.summary.rollout_id);
          } else if ("chunkDone" in m) next();
          else if ("fatal" in m) worker.emit("error", new Error(m.fatal));
        });
        worker.on("error", () => {
          if (current) leftovers.push(...current);
          current = null;
          void worker.terminate().then(() => resolve());
        });
        worker.on("online", next);
      }),
    ),
  );
  // Whatever a failed worker did not finish (or every chunk, if no worker started) is done here.
  for (const chunk of chunks.splice(0)) leftovers.push(...chunk);
  for (const input of leftovers) accept(await fallback(input));
  stats.inline = leftovers.length;
  return stats;
}
