// Shared, bounded, abortable builds: requests for the same key share one build; at most
// `concurrency` builds run at once (each can hold a large rollout's records in memory); a build
// whose every requester went away is aborted; finished results are kept in a small LRU bounded by
// weight. State lives on globalThis because Next bundles pages and route handlers separately.

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
  private readonly cache = new Map<string, { value: T; weight: number }>();
  private readonly pending = new Map<string, Pending<T>>();
  private readonly queue: Array<() => void> = [];
  readonly stats: BuildStats = { builds: 0, aborted: 0, active: 0, maxActive: 0, queued: 0 };

  constructor(
    private readonly budget: number,
    private readonly concurrency: number,
  ) {}

  async get(key: string, build: (signal: AbortSignal) => Promise<T>, weight: (value: T) => number, signal?: AbortSignal): Promise<T> {
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit); // most recently used last
      return hit.value;
    }
    let p = this.pending.get(key);
    if (!p) {
      const controller = new AbortController();
      const entry: Pending<T> = { controller, waiters: 0, promise: Promise.resolve(null as T) };
      entry.promise = this.run(() => build(controller.signal), controller.signal).then(
        (value) => {
          this.remember(key, value, weight(value));
          return value;
        },
      );
      entry.promise.catch(() => undefined).finally(() => this.pending.delete(key));
      this.pending.set(key, entry);
      p = entry;
    }
    p.waiters++;
    return this.wait(p, signal);
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

  private remember(key: string, value: T, weight: number): void {
    this.cache.set(key, { value, weight });
    let total = 0;
    for (const v of this.cache.values()) total += v.weight;
    for (const [k, v] of this.cache) {
      if (total <= this.budget || this.cache.size <= 1) break;
      this.cache.delete(k);
      total -= v.weight;
    }
  }
}

/** One instance per name across Next's bundles. */
export function sharedBuilds<T>(name: string, budget: number, concurrency: number): SharedBuilds<T> {
  const holder = globalThis as typeof globalThis & { __rolloutLensBuilds?: Map<string, SharedBuilds<unknown>> };
  const all = (holder.__rolloutLensBuilds ??= new Map());
  let b = all.get(name) as SharedBuilds<T> | undefined;
  if (!b) all.set(name, (b = new SharedBuilds<T>(budget, concurrency)) as SharedBuilds<unknown>);
  return b;
}
