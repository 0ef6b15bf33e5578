// The store worker pool's shapes (./pool): a queued job, a worker's slot, and the options a pool
// and a job take.
import type { EventLoopUtilization } from "node:perf_hooks";
import type { Worker } from "node:worker_threads";
import type { WorkerFailure } from "./serve";
import type { WatchViews } from "./watch";

export interface Job {
  id: number;
  group: string;
  request: unknown;
  resolve: (v: unknown) => void;
  reject: (err: unknown) => void;
  onProgress?: (bytes: number) => void;
  onPhase?: (name: string) => void;
  revive?: (failure: WorkerFailure) => Error;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export interface Slot {
  worker: Worker;
  /** The worker's current synchronous file call: when it began and its file (./serve). */
  watch: WatchViews;
  job: Job | null;
  /** The worker's event-loop use at the last check, and since when it has been idle with a job. */
  elu?: EventLoopUtilization;
  idleSince: number;
  /** Ends the worker once it has had no job for the pool's `idleMs`. */
  retire: NodeJS.Timeout | null;
}

export interface PoolOptions {
  /** Most workers at once. */
  size: number;
  /** Turns a worker's failure back into an error of the caller's kind. */
  revive?: (failure: WorkerFailure) => Error;
  /** A worker without a job this long is ended (a long-lived pool holds no idle threads). */
  idleMs?: number;
  /**
   * Workers lower their scheduling priority (the default, nice 10, or this nice value: background
   * work such as the summary index never starves the main thread). A pool whose jobs a user waits
   * on keeps the normal priority: a busy machine would slow the very build on screen.
   */
  lowPriority?: boolean | number;
}

export interface JobOptions {
  /** Jobs of different groups (runs) take turns, so a large run never starves a small one. */
  group?: string;
  signal?: AbortSignal;
  onProgress?: (bytes: number) => void;
  /** The worker's `ctx.phase` reports (./serve). */
  onPhase?: (name: string) => void;
  /**
   * Turns the worker's failure back into the caller's error class (else the pool's `revive`). A
   * pool lives on globalThis and may have been made by another bundle of the server (Next's
   * instrumentation, another route), whose copies of the error classes fail the caller's
   * `instanceof`: so callers that map errors pass their own.
   */
  revive?: (failure: WorkerFailure) => Error;
}
