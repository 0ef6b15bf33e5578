// Values derived from one generation of an index's rows (a table page, a count), kept in the
// process's bounded views cache until the rows change. Once they do, the index's entries of the
// older generation can never be asked for again (their keys hold it), so they are dropped at once
// instead of waiting for the cache's bound: while an index writes, every poll of its table finds a
// new generation, and up to VIEWS_BOUND stale views (pages of up to 200 summaries) stayed alive
// until evicted, long enough for V8 to move them to the old generation (docs/benchmarks.md).
import "server-only";
import { processCache } from "@/lib/cache";

/** Views kept in the process, every index's together. */
const VIEWS_BOUND = 256;
const views = () => processCache<unknown>("summary-index-views", "entries", VIEWS_BOUND);

export class GenerationViews {
  private generation = -1;
  private readonly ids = new Set<string>();

  /** `owner` keeps one index's keys apart from every other's. */
  constructor(private readonly owner: string) {}

  /** The value of `key` at `generation`, computed once. */
  get<T>(generation: number, key: string, compute: () => T): T {
    const cache = views();
    if (generation !== this.generation) {
      for (const id of this.ids) cache.delete(id);
      this.ids.clear();
      this.generation = generation;
    }
    const id = `${this.owner}\n${generation}\n${key}`;
    const hit = cache.get(id);
    if (hit !== undefined) return hit as T;
    const value = compute();
    cache.set(id, value);
    this.ids.add(id);
    return value;
  }
}
