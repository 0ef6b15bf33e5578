// The worker side of ./pool: runs one job at a time for the parent, makes this thread's store
// reads synchronous and watched (./file), so the parent sees a call that hangs, and posts
// progress, the result or the failure. Not responsible for what a job is (the handler decides).
import "server-only";
import { readlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { watchBlockingCalls } from "./file";
import { watchViews, writeWatchedName } from "./watch";
import { getHeapStatistics } from "node:v8";

/**
 * Lowers this thread's scheduling priority (Linux: a thread's nice value is set through its id,
 * read from /proc/thread-self), so on a busy machine the server's main thread, which answers every
 * request, is never starved by a long parse. Elsewhere, or when refused, the thread runs as it is.
 */
function yieldToMainThread(nice: number): void {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, nice);
  } catch {
    // No /proc, or not allowed: no harm, only no precedence for the main thread.
  }
}

/** A failure as it crosses the thread boundary: `kind` names the error class the caller revives. */
export interface WorkerFailure {
  kind: string;
  message: string;
}

export type FromWorker =
  | { id: number; progress: number }
  | { id: number; phase: string }
  | { id: number; result: unknown; retire?: boolean }
  | { id: number; error: WorkerFailure };

export interface JobContext {
  /** Tells the parent the bytes read since the last call. */
  progress(bytes: number): void;
  /** Tells the parent the job entered a named phase (after reading: deciding, decoding…). */
  phase(name: string): void;
  /**
   * Moves these buffers to the parent with the result instead of copying them (the result must
   * hold them; the worker must not touch them again). A large model's token arrays cross for free.
   */
  transfer(buffers: Iterable<ArrayBuffer>): void;
  /**
   * Ends this worker once the result is sent: its heap (a large rollout's entries, garbage not yet
   * collected) is freed at once instead of sitting beside the next build's.
   */
  retire(): void;
  /** retire(), when the worker's heap is past RETIRE_HEAP_BYTES now (a large parse's leftovers). */
  retireIfHeavy(): void;
}

/** A worker whose heap is past this after a job is ended (its memory freed) rather than reused. */
export const RETIRE_HEAP_BYTES = 256 * 2 ** 20;

export function serveStoreJobs(
  handle: (request: unknown, ctx: JobContext) => Promise<unknown>,
  classify: (err: unknown) => string = () => "error",
): void {
  const port = parentPort;
  const data = workerData as { watch?: unknown; lowPriority?: boolean | number } | null;
  const shared: unknown = data?.watch;
  if (!port || !(shared instanceof SharedArrayBuffer))
    throw new Error("a store worker runs only as a worker thread of a StoreWorkerPool");
  const low = data?.lowPriority;
  if (low !== false) yieldToMainThread(typeof low === "number" ? low : 10);
  const watch = watchViews(shared);
  let last = "";
  watchBlockingCalls({
    begin(file) {
      if (file !== last) writeWatchedName(watch, path.basename((last = file)));
      watch.since[0] = Date.now();
    },
    end() {
      watch.since[0] = 0;
    },
  });
  port.on("message", async ({ id, request }: { id: number; request: unknown }) => {
    const moved = new Set<ArrayBuffer>();
    let retire = false;
    const ctx: JobContext = {
      progress: (n) => port.postMessage({ id, progress: n } satisfies FromWorker),
      phase: (name) => port.postMessage({ id, phase: name } satisfies FromWorker),
      transfer: (buffers) => {
        for (const b of buffers) if (b.byteLength > 0) moved.add(b);
      },
      retire: () => void (retire = true),
      retireIfHeavy: () => void (retire ||= getHeapStatistics().used_heap_size > RETIRE_HEAP_BYTES),
    };
    let reply: FromWorker;
    try {
      const result = await handle(request, ctx);
      reply = retire ? { id, result, retire } : { id, result };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      reply = { id, error: { kind: classify(err), message } };
    }
    try {
      port.postMessage(reply, "result" in reply ? [...moved] : []);
    } catch (err) {
      // A result that cannot be cloned (nesting past the serializer's stack) fails its job alone.
      const message = `the result could not be sent: ${(err as Error).message}`;
      port.postMessage({ id, error: { kind: "error", message } } satisfies FromWorker);
    }
  });
}
