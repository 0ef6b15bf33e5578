// A bounded pool of store worker threads (a script serving ./serve), so reading and parsing
// store files never blocks the main thread's event loop. Each job runs on one worker; a worker
// whose synchronous file call makes no progress within the read deadline is abandoned (terminated
// and replaced) and its job fails with a message naming the file; a cancelled job terminates its
// worker. Not responsible for what the jobs do (the worker script) or for a fallback without one.
import "server-only";
import { Worker } from "node:worker_threads";
import { readDeadlineMs, StalledReadError } from "./file";
import type { Job, JobOptions, PoolOptions, Slot } from "./pool-types";
import type { FromWorker } from "./serve";
import { turnQueue } from "./turn";
import { readWatchedName, watchViews, WATCH_BYTES } from "./watch";

/**
 * Worker starts, process-wide, take turns of the event loop, one a turn: a start holds this thread
 * 10-25 ms, and a first run list that set several pools going started them all in one turn.
 */
const startTurn = turnQueue();

/** Abandoned workers still stuck in a call: past this many, no new job starts (a hung mount). */
export const MAX_STUCK_WORKERS = 8;

export class StoreWorkerPool {
  private slots: Slot[] = [];
  /** Queued jobs by group; groups take turns (`next`). */
  private queue = new Map<string, Job[]>();
  /** When each group was last served (a turn number). */
  private served = new Map<string, number>();
  private turn = 0;
  private nextId = 1;
  private timer: NodeJS.Timeout | null = null;
  private stuck = 0;
  private closed = false;
  /** Workers started so far, and starts waiting for their turn. */
  started = 0;
  private starting = 0;

  constructor(
    private readonly script: string,
    private readonly options: PoolOptions,
  ) {}

  /** Most workers at once. */
  get capacity(): number {
    return this.options.size;
  }
  /** Workers alive now (busy or idle). */
  get workers(): number {
    return this.slots.length;
  }

  /**
   * Starts every worker soon (a turn each), idle, so each loads its script while the caller still
   * prepares the jobs (a cold worker takes 0.1–0.3 s to load); idle workers retire as after a job.
   */
  prestart(): void {
    while (this.startSoon());
  }

  /** Starts a worker in a turn of its own, if the pool has room; it then serves the queue. */
  private startSoon(): boolean {
    if (this.closed || this.slots.length + this.starting >= this.options.size) return false;
    this.starting++;
    void startTurn().then(() => {
      this.starting--;
      const slot = this.closed ? null : this.spawn();
      if (slot && this.queue.size > 0) this.pump();
      else if (slot) this.idle(slot);
    });
    return true;
  }

  /** The job's result from a worker; rejects with the worker's error, a stall or the abort. */
  run<T>(request: unknown, options: JobOptions = {}): Promise<T> {
    const { group = "", signal, onProgress, onPhase, revive } = options;
    return new Promise<unknown>((resolve, reject) => {
      signal?.throwIfAborted();
      if (this.closed) throw new Error("the store worker pool is closed");
      if (this.stuck >= MAX_STUCK_WORKERS)
        throw new Error(
          `${this.stuck} store reads are stuck (a stalled mount?); no new read starts until one returns`,
        );
      const id = this.nextId++;
      const job: Job = { id, group, request, resolve, reject, onProgress, onPhase, revive, signal };
      if (signal) {
        job.onAbort = () => this.cancel(job, signal.reason);
        signal.addEventListener("abort", job.onAbort, { once: true });
      }
      const jobs = this.queue.get(group);
      if (jobs) jobs.push(job);
      else this.queue.set(group, [job]);
      this.pump();
    }) as Promise<T>;
  }

  /** Terminates every worker; queued and running jobs are rejected. */
  close(): void {
    this.closed = true;
    const err = new Error("the store worker pool is closed");
    const queued = [...this.queue.values()].flat();
    this.queue.clear();
    for (const job of queued) this.settle(job, err);
    for (const slot of [...this.slots]) this.abandon(slot, err);
  }

  private pump(): void {
    while (this.queue.size > 0) {
      const slot = this.slots.find((s) => s.job === null);
      if (!slot) return void this.startSoon();
      const job = this.next();
      slot.job = job;
      if (slot.retire) clearTimeout(slot.retire);
      slot.retire = null;
      slot.watch.since[0] = 0;
      slot.idleSince = Date.now();
      slot.worker.ref(); // a job in flight keeps the process alive (the CLI awaits it)
      slot.worker.postMessage({ id: job.id, request: job.request });
    }
    this.watchdog();
  }

  /** The first job of the group served least recently (a new group first), in order of arrival. */
  private next(): Job {
    let pick: [string, Job[]] | null = null;
    for (const entry of this.queue)
      if (!pick || (this.served.get(entry[0]) ?? -1) < (this.served.get(pick[0]) ?? -1))
        pick = entry;
    const [group, jobs] = pick as [string, Job[]];
    const job = jobs.shift() as Job;
    if (jobs.length === 0) this.queue.delete(group);
    // Kept in arrival order of service; groups long gone are forgotten.
    this.served.delete(group);
    this.served.set(group, this.turn++);
    if (this.served.size > 1024) this.served.delete(this.served.keys().next().value as string);
    return job;
  }

  private spawn(): Slot | null {
    if (this.slots.length >= this.options.size) return null;
    const shared = new SharedArrayBuffer(WATCH_BYTES);
    // Plain JavaScript: no loader flags of the parent (vitest, tsx).
    const workerData = { watch: shared, lowPriority: this.options.lowPriority ?? true };
    const worker = new Worker(this.script, { execArgv: [], workerData });
    const slot: Slot = {
      worker,
      watch: watchViews(shared),
      job: null,
      idleSince: 0,
      retire: null,
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
    const job = slot.job;
    if (!job || job.id !== m.id) return;
    if ("progress" in m) return void job.onProgress?.(m.progress);
    if ("phase" in m) return void job.onPhase?.(m.phase);
    slot.job = null;
    slot.worker.unref();
    // A worker that asked to go (a large build's heap) is ended before the next job can take it.
    if ("result" in m && m.retire) this.retire(slot);
    if ("result" in m) this.settle(job, null, m.result);
    else {
      const revive = job.revive ?? this.options.revive;
      this.settle(job, revive?.(m.error) ?? new Error(m.error.message));
    }
    this.pump();
    if (slot.job === null) this.idle(slot);
  }

  /** An idle worker retires after idleMs (when the pool sets one) unless a job takes it first. */
  private idle(slot: Slot): void {
    if (this.options.idleMs === undefined) return;
    slot.retire = setTimeout(() => this.retire(slot), this.options.idleMs);
    slot.retire.unref();
  }

  /** Ends an idle worker; the next job starts a fresh one. */
  private retire(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i < 0 || slot.job !== null) return;
    this.slots.splice(i, 1);
    void slot.worker.terminate().catch(() => {});
  }

  private settle(job: Job, err: unknown, value?: unknown): void {
    if (job.onAbort) job.signal?.removeEventListener("abort", job.onAbort);
    if (err) job.reject(err);
    else job.resolve(value);
  }

  private cancel(job: Job, reason: unknown): void {
    const jobs = this.queue.get(job.group);
    const queued = jobs?.indexOf(job) ?? -1;
    if (jobs && queued >= 0) {
      jobs.splice(queued, 1);
      if (jobs.length === 0) this.queue.delete(job.group);
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
    if (slot.retire) clearTimeout(slot.retire);
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
      const since = slot.watch.since[0] ?? 0;
      if (since > 0 && now - since > ms)
        this.abandon(slot, new StalledReadError(readWatchedName(slot.watch) || "a store file", ms));
      else if (this.idleFor(slot, now) > ms)
        // Idle while its job waits: an asynchronous call (not one of ./file's) never returned.
        this.abandon(slot, new StalledReadError("a store file", ms));
    }
    this.watchdog();
  }

  /** How long the slot's worker has been idle (under 1% busy at every check) with its job. */
  private idleFor(slot: Slot, now: number): number {
    const elu = slot.worker.performance.eventLoopUtilization();
    const delta = slot.elu ? slot.worker.performance.eventLoopUtilization(elu, slot.elu) : null;
    slot.elu = elu;
    if (!delta || delta.utilization > 0.01 || (slot.watch.since[0] ?? 0) > 0) slot.idleSince = now;
    return now - slot.idleSince;
  }
}
