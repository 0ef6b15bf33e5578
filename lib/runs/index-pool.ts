// Summarises many rollouts on worker threads, one per core, pulling chunks from a shared queue so
// a slow rollout never idles the others. Workers run the built dist/index-worker.mjs (`npm run
// build` makes it from ./index-worker.ts); without it, or when a worker fails, the work is done in
// this thread instead, with the same summariser.
import "server-only";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { RolloutSummary } from "@/lib/schema";
import type { SummarizeInput } from "./summarize";

/** The built worker, relative to the app directory (the server's and the tests' working directory). */
export function workerScript(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "dist", "index-worker.mjs");
}

const CHUNK = 32;

type Reply = { summary: RolloutSummary } | { chunkDone: true } | { fatal: string };

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
  const chunks: SummarizeInput[][] = [];
  for (let i = 0; i < inputs.length; i += CHUNK) chunks.push(inputs.slice(i, i + CHUNK));
  const script = workerScript();
  const count = existsSync(script)
    ? Math.max(1, Math.min(os.availableParallelism(), chunks.length))
    : 0;
  const leftovers: SummarizeInput[] = [];
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          let current: SummarizeInput[] | null = null;
          let worker: Worker;
          try {
            worker = new Worker(script, { execArgv: [] }); // plain JavaScript: no loader flags of the parent (vitest, tsx)
            stats.workers++;
          } catch {
            resolve();
            return;
          }
          const next = () => {
            current = chunks.shift() ?? null;
            if (current) worker.postMessage(current);
            else void worker.terminate();
          };
          worker.on("message", (m: Reply) => {
            if ("summary" in m) {
              stats.inWorkers++;
              accept(m.summary);
              if (current) current = current.filter((c) => c.rolloutId !== m.summary.rollout_id);
            } else if ("chunkDone" in m) next();
            else if ("fatal" in m) worker.emit("error", new Error(m.fatal));
          });
          worker.on("error", () => void worker.terminate());
          // However a worker ends (done, failed, or crashed), what it had not summarised is left over.
          worker.on("exit", () => {
            if (current) leftovers.push(...current);
            current = null;
            resolve();
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
