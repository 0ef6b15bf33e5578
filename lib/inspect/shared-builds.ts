// Shared, bounded, abortable builds: requests for the same key share one build; at most
// `concurrency` builds run at once (each can hold a large rollout's entries in memory); a build
// whose every requester went away is aborted. Finished values go to a bounded LRU cache from the
// process-wide registry (lib/cache/registry), which owns the bound and the eviction.
import { processCache, type BoundedCache, type CacheUnit } from "@/lib/cache";

export interface BuildStats {
  builds: number;
  aborted: number;
  active: number;
  maxActive: number;
  queued: number;
}

interface Pending<T> {
  promise: Promise<T>;
  controller: AbortController;
  waiters: number;
}

export class SharedBuilds<T> {
  private readonly pending = new Map<string, Pending<T>>();
  private readonly queue: Array<() => void> = [];
  readonly stats: BuildStats = { builds: 0, aborted: 0, active: 0, maxActive: 0, queued: 0 };

  constructor(
    private readonly cache: BoundedCache<T>,
    private readonly concurrency: number,
  ) {}

  /** The cached value for `key`, or the one build of it (started here or already running). */
  get(
    key: string,
    build: (signal: AbortSignal) => Promise<T>,
    weight: (value: T) => number,
    signal?: AbortSignal,
  ): Promise<T> {
    const hit = this.cache.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    let p = this.pending.get(key);
    if (!p) {
      const controller = new AbortController();
      const promise = this.run(() => build(controller.signal), controller.signal).then((value) => {
        this.cache.set(key, value, weight(value));
        return value;
      });
      const entry: Pending<T> = { controller, waiters: 0, promise };
      promise.catch(() => undefined).finally(() => this.pending.delete(key));
      this.pending.set(key, entry);
      p = entry;
    }
    p.waiters++;
    return this.wait(p, signal);
  }

  /** The value for `key` is cached (a request would get it at once); counts no hit or miss. */
  has(key: string): boolean {
    return this.cache.keys().includes(key);
  }

  clear(): void {
    this.cache.clear();
  }

  /** Waits for a shared build; if this was its last waiter and it gives up, the build is aborted. */
  private wait(p: Pending<T>, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const leave = () => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        p.waiters--;
      };
      const onAbort = () => {
        leave();
        if (p.waiters === 0 && !p.controller.signal.aborted) {
          this.stats.aborted++;
          p.controller.abort(signal?.reason);
        }
        reject(signal?.reason ?? new DOMException("aborted", "AbortError"));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      p.promise.then(
        (v) => (leave(), resolve(v)),
        (e: unknown) => (leave(), reject(e)),
      );
    });
  }

  private async run(fn: () => Promise<T>, signal: AbortSignal): Promise<T> {
    if (this.stats.active >= this.concurrency) {
      this.stats.queued++;
      await new Promise<void>((resolve) => this.queue.push(resolve));
      this.stats.queued--;
    }
    this.stats.active++;
    this.stats.maxActive = Math.max(this.stats.maxActive, this.stats.active);
    this.stats.builds++;
    try {
      signal.throwIfAborted();
      return await fn();
    } finally {
      this.stats.active--;
      this.queue.shift()?.();
    }
  }
}

const BUILDS = Symbol.for("rollout-lens.shared-builds");
type Holder = typeof globalThis & { [BUILDS]?: Map<string, SharedBuilds<unknown>> };

/**
 * The process's shared builds called `name`, with its values in the registry's cache of that name.
 * One per process (held on globalThis), whichever of Next's bundles asks first.
 */
export function sharedBuilds<T>(
  name: string,
  unit: CacheUnit,
  bound: number,
  concurrency: number,
): SharedBuilds<T> {
  const all = ((globalThis as Holder)[BUILDS] ??= new Map());
  let b = all.get(name);
  if (!b) {
    b = new SharedBuilds<unknown>(processCache<unknown>(name, unit, bound), concurrency);
    all.set(name, b);
  }
  // Every instance under `name` was made here with T's cache; the map only erases T.
  return b as SharedBuilds<T>;
}
