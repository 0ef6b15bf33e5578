// A bounded pool of store worker threads (a script serving ./io-serve), so reading and parsing
// store files never blocks the main thread's event loop. Each job runs on one worker; a worker
// whose synchronous file call makes no progress within the read deadline is abandoned (terminated
// and replaced) and its job fails with a message naming the file; a cancelled job terminates its
// worker. Not responsible for what the jobs do (the worker script) or for a fallback without one.
import "server-only";
import type { EventLoopUtilization } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { readDeadlineMs, StalledReadError } from "./io-file";
import type { FromWorker, WorkerFailure } from "./io-serve";

/** Abandoned workers still stuck in a call: past this many, no new job starts (a hung mount). */
export const MAX_STUCK_WORKERS = 8;

interface Job {
  id: number;
  request: unknown;
  resolve: (v: unknown) => void;
  reject: (err: unknown) => void;
  onProgress?: (bytes: number) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  /** [0]: Date.now() when the worker's current synchronous file call began; 0 when none. */
  watch: Float64Array;
  /** The file of the worker's latest call, for the stall message. */
  file: string;
  job: Job | null;
  /** The worker's event-loop use at the last check, and since when it has been idle with a job. */
  elu?: EventLoopUtilization;
  idleSince: number;
}

export interface PoolOptions {
  /** Most workers at once. */
  size: number;
  /** Turns a worker's failure back into an error of the caller's kind. */
  revive?: (failure: WorkerFailure) => Error;
}

export interface JobOptions {
  signal?: AbortSignal;
  onProgress?: (bytes: number) => void;
}

export class StoreWorkerPool {
  private slots: Slot[] = [];
  private queue: Job[] = [];
  private nextId = 1;
  private timer: NodeJS.Timeout | null = null;
  private stuck = 0;
  private closed = false;
  /** Workers started so far (for the index's progress). */
  started = 0;

  constructor(
    private readonly script: string,
    private readonly options: PoolOptions,
  ) {}

  /** The job's result from a worker; rejects with the worker's error, a stall or the abort. */
  run<T>(request: unknown, { signal, onProgress }: JobOptions = {}): Promise<T> {
    return new Promise<unknown>((resolve, reject) => {
      signal?.throwIfAborted();
      if (this.closed) throw new Error("the store worker pool is closed");
      if (this.stuck >= MAX_STUCK_WORKERS)
        throw new Error(
          `${this.stuck} store reads are stuck (a stalled mount?); no new read starts until one returns`,
        );
      const job: Job = { id: this.nextId++, request, resolve, reject, onProgress, signal };
      if (signal) {
        job.onAbort = () => this.cancel(job, signal.reason);
        signal.addEventListener("abort", job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.pump();
    }) as Promise<T>;
  }

  /** Terminates every worker; queued and running jobs are rejected. */
  close(): void {
    this.closed = true;
    const err = new Error("the store worker pool is closed");
    for (const job of this.queue.splice(0)) this.settle(job, err);
    for (const slot of [...this.slots]) this.abandon(slot, err);
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.job === null) ?? this.spawn();
      if (!slot) return;
      const job = this.queue.shift() as Job;
      slot.job = job;
      slot.watch[0] = 0;
      slot.idleSince = Date.now();
      slot.worker.ref(); // a job in flight keeps the process alive (the CLI awaits it)
      slot.worker.postMessage({ id: job.id, request: job.request });
    }
    this.watchdog();
  }

  private spawn(): Slot | null {
    if (this.slots.length >= this.options.size) return null;
    const shared = new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT);
    // Plain JavaScript: no loader flags of the parent (vitest, tsx).
    const worker = new Worker(this.script, { execArgv: [], workerData: { watch: shared } });
    const slot: Slot = {
      worker,
      watch: new Float64Array(shared),
      file: "",
      job: null,
      idleSince: 0,
    };
    this.started++;
    this.slots.push(slot);
    worker.on("message", (m: FromWorker) => this.receive(slot, m));
    worker.on("error", (err) => this.abandon(slot, err));
    worker.on("exit", (code) => {
      const err = new Error(`a store worker exited (code ${code}) during the read`);
      if (this.slots.includes(slot)) this.abandon(slot, err);
    });
    worker.unref();
    return slot;
  }

  private receive(slot: Slot, m: FromWorker): void {
    if ("blocking" in m) return void (slot.file = m.blocking);
    const job = slot.job;
    if (!job || job.id !== m.id) return;
    if ("progress" in m) return void job.onProgress?.(m.progress);
    slot.job = null;
    slot.worker.unref();
    if ("result" in m) this.settle(job, null, m.result);
    else this.settle(job, this.options.revive?.(m.error) ?? new Error(m.error.message));
    this.pump();
  }

  private settle(job: Job, err: unknown, value?: unknown): void {
    if (job.onAbort) job.signal?.removeEventListener("abort", job.onAbort);
    if (err) job.reject(err);
    else job.resolve(value);
  }

  private cancel(job: Job, reason: unknown): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      return this.settle(job, reason);
    }
    const slot = this.slots.find((s) => s.job === job);
    if (slot) this.abandon(slot, reason);
  }

  /** Fails the slot's job with `err`, terminates its worker and lets a fresh one take its place. */
  private abandon(slot: Slot, err: unknown): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    if (slot.job) this.settle(slot.job, err);
    slot.job = null;
    // A worker inside a hung system call exits only when the call returns: count it until then.
    this.stuck++;
    slot.worker.once("exit", () => this.stuck--);
    void slot.worker.terminate().catch(() => {});
    slot.worker.unref();
    if (!this.closed) this.pump();
  }

  /** Checks, while any job runs, whether a worker's file call has passed the deadline. */
  private watchdog(): void {
    const busy = this.slots.some((s) => s.job !== null);
    if (!busy && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    } else if (busy && !this.timer) {
      const ms = readDeadlineMs();
      this.timer = setInterval(() => this.check(ms), Math.max(25, Math.min(1000, ms / 4)));
      this.timer.unref();
    }
  }

  private check(ms: number): void {
    const now = Date.now();
    for (const slot of [...this.slots]) {
      if (!slot.job) continue;
      const since = slot.watch[0] ?? 0;
      if (since > 0 && now - since > ms)
        this.abandon(slot, new StalledReadError(slot.file || "a store file", ms));
      else if (this.idleFor(slot, now) > ms)
        // Idle while its job waits: an asynchronous call (not one of ./io-file's) never returned.
        this.abandon(slot, new StalledReadError("a store file", ms));
    }
    this.watchdog();
  }

  /** How long the slot's worker has been idle (under 1% busy at every check) with its job. */
  private idleFor(slot: Slot, now: number): number {
    const elu = slot.worker.performance.eventLoopUtilization();
    const delta = slot.elu ? slot.worker.performance.eventLoopUtilization(elu, slot.elu) : null;
    slot.elu = elu;
    if (!delta || delta.utilization > 0.01 || (slot.watch[0] ?? 0) > 0) slot.idleSince = now;
    return now - slot.idleSince;
  }
}
