// buildRollout (./build) on a store worker thread (lib/store/io/pool), so reading and
// deciding a rollout, however large or hostile its files, never blocks the server's event loop:
// a read that stalls fails after the read deadline, a cancelled request terminates its worker.
// Without the built worker (dist/store-worker.mjs: `npm run build`), or on a worker already, the
// build runs in this thread. Not responsible for caching builds (lib/inspect/shared-builds).
import "server-only";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InvalidInputError, UnknownRolloutError } from "@/lib/errors";
import {
  assertRolloutId,
  fileState,
  memoryBudget,
  OutsideStoreError,
  onStoreWorker,
  StoreWorkerPool,
  type WorkerFailure,
} from "@/lib/store";
import {
  buildRollout,
  type BuildRolloutOptions,
  type BuiltRollout,
  type RolloutSource,
} from "./build";
import type { StoreJob } from "./jobs";
import { readTokenizerFiles, type TokenizerReader } from "@/lib/tokens";

/**
 * The built store worker, relative to the app directory (the server's and the tests' cwd); for the
 * "trigrams" lane, the trigram writer's own bundle, which loads a 500th of the store worker's code.
 */
export function storeWorkerScript(lane?: PoolLane): string {
  const file = lane === "trigrams" ? "trigram-worker.mjs" : "store-worker.mjs";
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "dist", file);
}

/** The error a worker's failure stands for, so routes map it to the same status as inline. */
export function reviveStoreError({ kind, message }: WorkerFailure): Error {
  if (kind === "outside") return new OutsideStoreError(message);
  if (kind === "unknown-rollout") return new UnknownRolloutError(message);
  if (kind === "invalid-input") return new InvalidInputError(message);
  return new Error(message);
}

/**
 * The process's store worker pools, one per lane: "interactive" (a page or route waits for it),
 * "background" (the summary index) and "trigrams" (the search index's writer), so indexing a
 * hostile run never queues a page behind it, and the trigrams take what CPU the summaries leave.
 */
export type PoolLane = "interactive" | "background" | "trigrams";
/** Where a build runs. */
export type BuildLane = Exclude<PoolLane, "trigrams">;

/**
 * Workers of a lane's pool: ROLLOUT_LENS_IO_WORKERS (0: none, work inline), else 2–4, 1–2 and 1.
 * A page's build is what its user waits for: normal priority. The other lanes yield, the trigrams
 * below the summaries too; the trigram worker ends after a minute idle.
 */
function laneOptions(lane: PoolLane): {
  size: number;
  lowPriority: boolean | number;
  idleMs?: number;
} {
  const n = Number(process.env.ROLLOUT_LENS_IO_WORKERS ?? NaN);
  const cores = os.availableParallelism();
  const set = Number.isInteger(n) && n >= 0;
  if (lane === "interactive")
    return { size: set ? n : Math.min(4, Math.max(2, cores)), lowPriority: false };
  if (lane === "background") return { size: Math.min(set ? n : cores, 2), lowPriority: true };
  return { size: Math.min(set ? n : 1, 1), lowPriority: 19, idleMs: 60_000 };
}

// One pool per lane and process, on globalThis so a dev-server module reload starts no other.
const KEY = Symbol.for("rollout-lens.build-pools");
const holder = globalThis as { [KEY]?: Partial<Record<PoolLane, StoreWorkerPool>> };

/** The lane's pool of store workers, or null without one (no built worker, none wanted, or on one). */
export function storePool(lane: PoolLane): StoreWorkerPool | null {
  if (onStoreWorker()) return null;
  const pools = (holder[KEY] ??= {});
  const existing = pools[lane];
  if (existing) return existing;
  const script = storeWorkerScript(lane);
  const { size, ...options } = laneOptions(lane);
  if (size === 0 || !existsSync(script)) return null;
  return (pools[lane] = new StoreWorkerPool(script, {
    size,
    revive: reviveStoreError,
    ...options,
  }));
}

/** buildRollout, run on a store worker when there is one (see the module comment). */
export async function buildRolloutOffThread(
  where: string | RolloutSource,
  rolloutId: string,
  options: BuildRolloutOptions,
  lane: BuildLane = "interactive",
): Promise<BuiltRollout> {
  assertRolloutId(rolloutId);
  const pool = storePool(lane);
  if (!pool) return buildRollout(where, rolloutId, options);
  const { signal, onProgress, ...rest } = options;
  const job: StoreJob = {
    kind: "build",
    where,
    rolloutId,
    options: rest,
    progress: onProgress !== undefined,
  };
  return pool.run<BuiltRollout>(job, { signal, onProgress, revive: reviveStoreError });
}

/**
 * A run's tokenizer files read on a store worker, so a huge tokenizer.json is parsed there: what
 * comes back is only what decoding uses (lib/tokens slimTokenizerText), parsed here.
 */
export const readTokenizerOffThread: TokenizerReader = async (file, configFile) => {
  const pool = storePool("interactive");
  if (!pool) return readTokenizerFiles(file, configFile);
  const job: StoreJob = { kind: "tokenizer", file, configFile };
  const { size } = await fileState(file);
  const text = await memoryBudget().run(size, () =>
    pool.run<{ json: string; config: string }>(job, { revive: reviveStoreError }),
  );
  return { json: JSON.parse(text.json) as unknown, config: JSON.parse(text.config) as unknown };
};
