// Every in-memory cache of the server, in one process-wide registry: each cache has a stated bound
// (a weight in bytes, tokens or entries) and evicts least recently used values past it. Held on
// globalThis because Next bundles routes and pages separately; one registry per process, not per
// bundle. Not responsible for what is cached or for keying by file version (lib/store/file-version).

export type CacheUnit = "bytes" | "tokens" | "entries";

export interface CacheStats {
  name: string;
  unit: CacheUnit;
  bound: number;
  weight: number;
  entries: number;
  hits: number;
  misses: number;
  evictions: number;
}

export interface BoundedCache<V> {
  get(key: string): V | undefined;
  /** Stores a value with its weight (1 for an "entries" cache); evicts the oldest past the bound. */
  set(key: string, value: V, weight?: number): void;
  delete(key: string): void;
  clear(): void;
  keys(): string[];
  readonly stats: CacheStats;
}

type Slot<V> = { value: V; weight: number };

class LruCache<V> implements BoundedCache<V> {
  private readonly slots = new Map<string, Slot<V>>();
  readonly stats: CacheStats;

  constructor(name: string, unit: CacheUnit, bound: number) {
    this.stats = { name, unit, bound, weight: 0, entries: 0, hits: 0, misses: 0, evictions: 0 };
  }

  get(key: string): V | undefined {
    const slot = this.slots.get(key);
    if (!slot) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    this.slots.delete(key); // re-insert: Map order is recency order
    this.slots.set(key, slot);
    return slot.value;
  }

  set(key: string, value: V, weight = 1): void {
    this.delete(key);
    this.slots.set(key, { value, weight });
    this.stats.weight += weight;
    this.stats.entries = this.slots.size;
    // The newest value stays even when it alone passes the bound: the caller is using it now.
    for (const [oldest] of this.slots) {
      if (this.stats.weight <= this.stats.bound || oldest === key) break;
      this.delete(oldest);
      this.stats.evictions++;
    }
  }

  delete(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    this.slots.delete(key);
    this.stats.weight -= slot.weight;
    this.stats.entries = this.slots.size;
  }

  clear(): void {
    this.slots.clear();
    this.stats.weight = 0;
    this.stats.entries = 0;
  }

  keys(): string[] {
    return [...this.slots.keys()];
  }
}

const REGISTRY = Symbol.for("rollout-lens.cache-registry");
type Holder = typeof globalThis & { [REGISTRY]?: Map<string, BoundedCache<unknown>> };

function registry(): Map<string, BoundedCache<unknown>> {
  const holder = globalThis as Holder;
  return (holder[REGISTRY] ??= new Map());
}

/**
 * The process's cache called `name`, created on first use with this unit and bound. Later calls
 * with the same name return the same cache (the first bound wins), whichever bundle asks.
 */
export function processCache<V>(name: string, unit: CacheUnit, bound: number): BoundedCache<V> {
  const caches = registry();
  let cache = caches.get(name);
  if (!cache) {
    cache = new LruCache<unknown>(name, unit, bound);
    caches.set(name, cache);
  }
  return cache as BoundedCache<V>;
}

/** Every cache's current figures, for benchmarks and diagnostics. */
export function cacheStats(): CacheStats[] {
  return [...registry().values()].map((c) => ({ ...c.stats }));
}

/** Empties every cache (benchmarks measuring cold paths; tests). */
export function clearAllCaches(): void {
  for (const cache of registry().values()) cache.clear();
}
