// buildRollout (./build-rollout) on a store worker thread (lib/store/io-pool), so reading and
// deciding a rollout, however large or hostile its files, never blocks the server's event loop:
// a read that stalls fails after the read deadline, a cancelled request terminates its worker.
// Without the built worker (dist/store-worker.mjs: `npm run build`), or on a worker already, the
// build runs in this thread. Not responsible for caching builds (lib/inspect/shared-builds).
import "server-only";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InvalidInputError, UnknownRolloutError } from "@/lib/errors";
import { assertRolloutId } from "@/lib/store";
import { rolloutReadBytes } from "@/lib/store/files";
import { OutsideStoreError } from "@/lib/store/confine";
import { onStoreWorker } from "@/lib/store/io-file";
import { StoreWorkerPool } from "@/lib/store/io-pool";
import type { WorkerFailure } from "@/lib/store/io-serve";
import {
  buildRollout,
  type BuildRolloutOptions,
  type BuiltRollout,
  type RolloutSource,
} from "./build-rollout";
import type { StoreJob } from "./store-worker";

/** The built store worker, relative to the app directory (the server's and the tests' cwd). */
export function storeWorkerScript(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "dist", "store-worker.mjs");
}

/** The error a worker's failure stands for, so routes map it to the same status as inline. */
export function reviveStoreError({ kind, message }: WorkerFailure): Error {
  if (kind === "outside") return new OutsideStoreError(message);
  if (kind === "unknown-rollout") return new UnknownRolloutError(message);
  if (kind === "invalid-input") return new InvalidInputError(message);
  return new Error(message);
}

/**
 * Where a build runs: "interactive" (a page or route waits for it) or "background" (the summary
 * index), each its own pool, so indexing a hostile run never queues a page behind it.
 */
export type BuildLane = "interactive" | "background";

/** Workers of a lane's pool: ROLLOUT_LENS_IO_WORKERS (0: none, build inline), else 2–4 and 1–2. */
function poolSize(lane: BuildLane): number {
  const n = Number(process.env.ROLLOUT_LENS_IO_WORKERS ?? NaN);
  if (Number.isInteger(n) && n >= 0) return lane === "interactive" ? n : Math.min(n, 2);
  const cores = os.availableParallelism();
  return lane === "interactive" ? Math.min(4, Math.max(2, cores)) : Math.min(2, cores);
}

/**
 * A page's build of a rollout whose files pass this many bytes runs in this thread: the built
 * rollout holds every token id the files hold (a 330 MB rollout, ~51M), and copying that back from
 * a worker (structured clone) costs this thread more than the build itself (5 s against 1.6 s).
 * Below it, the copy is small and the worker keeps a slow or hostile parse off the event loop. In
 * this thread the read still refuses anything but a regular file and races the read deadline.
 */
const INLINE_BYTES = Number(process.env.ROLLOUT_LENS_INLINE_BUILD_BYTES ?? 32 * 2 ** 20);

// One pool per lane and process, on globalThis so a dev-server module reload starts no other.
const KEY = Symbol.for("rollout-lens.build-pools");
const holder = globalThis as { [KEY]?: Partial<Record<BuildLane, StoreWorkerPool>> };

function buildPool(lane: BuildLane): StoreWorkerPool | null {
  if (onStoreWorker()) return null;
  const pools = (holder[KEY] ??= {});
  const existing = pools[lane];
  if (existing) return existing;
  const script = storeWorkerScript();
  const size = poolSize(lane);
  if (size === 0 || !existsSync(script)) return null;
  return (pools[lane] = new StoreWorkerPool(script, { size, revive: reviveStoreError }));
}

/** buildRollout, run on a store worker when there is one (see the module comment). */
export async function buildRolloutOffThread(
  where: string | RolloutSource,
  rolloutId: string,
  options: BuildRolloutOptions,
  lane: BuildLane = "interactive",
): Promise<BuiltRollout> {
  assertRolloutId(rolloutId);
  const pool = buildPool(lane);
  if (!pool || (lane === "interactive" && (await readBytes(where, rolloutId)) > INLINE_BYTES))
    return buildRollout(where, rolloutId, options);
  const { signal, onProgress, ...rest } = options;
  const job: StoreJob = {
    kind: "build",
    where,
    rolloutId,
    options: rest,
    progress: onProgress !== undefined,
  };
  return pool.run<BuiltRollout>(job, { signal, onProgress });
}

async function readBytes(where: string | RolloutSource, rolloutId: string): Promise<number> {
  const source = typeof where === "string" ? { tokensDir: where } : where;
  return rolloutReadBytes(source.tokensDir ?? null, source.modelCallsDir ?? null, rolloutId);
}
