// The summary index: every rollout's summary, held in memory and cached in SQLite (summary-rows)
// outside the runs root, each row keyed by its files' versions and record hash (summary-keys), so a
// re-open is instant and a growing run is updated incrementally. Rollouts are summarised on the
// index's worker threads (./index-pool), never on this one, while what is done stays readable.
// A damaged database is rebuilt (summary-rows) and the run's progress carries a notice saying so
// for a while. Never writes inside a store.
import "server-only";
import os from "node:os";
import path from "node:path";
import { createHash, randomUUID } from "node:crypto";
import { processCache } from "@/lib/cache/registry";
import { listStore } from "@/lib/store";
import { isInside } from "@/lib/store/confine";
import type { IndexProgress, RolloutSummary } from "@/lib/schema";
import { compareIds } from "./rollout-query";
import { readRolloutRecords } from "./rollout-records";
import { runsRoot, type RunLayout } from "./runs-root";
import { summarizeSafely } from "./summarize";
import { checkCacheOffThread, summarizeInWorkers } from "./index-pool";
import { CURRENT_KEY_PREFIX, keyedInputs, type KeyedInput } from "./summary-keys";
import { SummaryRows, type SummaryRow } from "./summary-rows";

export { SUMMARY_VERSION } from "./summary-keys";
/** Longest stretch of work on this thread while a cache is read into memory. */
const LOAD_SLICE_MS = 10;
/** How long the notice of a rebuilt cache stays in the progress after the rebuild is done. */
export const CACHE_NOTICE_MS = 60_000;

/**
 * Summaries held in memory across every run's index (weight: rollouts). Past it the least recently
 * used run's index is dropped; its database stays, so the next visit re-opens it without rebuilding.
 */
export const INDEX_ROLLOUTS_BOUND = 100_000;
/** Views derived from an index generation (a query's sorted rows, a health report). */
const VIEWS_BOUND = 64;

const indexes = () =>
  processCache<SummaryIndex>("summary-indexes", "entries", INDEX_ROLLOUTS_BOUND);
const views = () => processCache<unknown>("summary-index-views", "entries", VIEWS_BOUND);

export type { IndexProgress };

export interface IndexSnapshot {
  summaries: RolloutSummary[];
  progress: IndexProgress;
  /** Rows of rollouts.jsonl that could not be read. */
  unreadable_records: Array<{ line: number; reason: string }>;
  /** Why rollouts.jsonl could not be read at all (its rollouts then come from the store alone). */
  records_error: string | null;
  skipped_files: string[];
}

/** Where index databases live: ROLLOUT_LENS_CACHE, else .rollout-lens-cache in the app directory; never inside the runs root. */
export function cacheDir(root = runsRoot()): string {
  const wanted = path.resolve(
    /*turbopackIgnore: true*/ process.env.ROLLOUT_LENS_CACHE ??
      path.join(process.cwd(), ".rollout-lens-cache"),
  );
  return isInside(root, wanted) ? path.join(os.tmpdir(), "rollout-lens-cache") : wanted;
}

export class SummaryIndex {
  private readonly memory = new Map<string, { key: string; summary: RolloutSummary }>();
  /** Bumped on every change to `memory`; derived views (sorted list, queries) key on it. */
  private generation = 0;
  /** Tells this instance's views apart from those of another index of the same run (after eviction). */
  private readonly instance = randomUUID();
  private sorted: { generation: number; list: RolloutSummary[] } | null = null;
  /** The database is open only while a refresh runs, so an idle or evicted index holds no handle. */
  private readonly rows: SummaryRows;
  private loaded = false;
  private refreshing: Promise<void> | null = null;
  private lastRefresh = 0;
  private unreadableRecords: IndexSnapshot["unreadable_records"] = [];
  private recordsError: string | null = null;
  private skipped: string[] = [];
  /** What was wrong with the cache, until when it is shown (Infinity while the rebuild runs). */
  private notice: { text: string; until: number } | null = null;
  readonly progress: IndexProgress = {
    done: 0,
    total: 0,
    running: false,
    error: null,
    last_ms: null,
    workers: 0,
    in_workers: 0,
  };

  constructor(
    readonly run: RunLayout,
    dbFile: string | null,
  ) {
    this.rows = new SummaryRows(dbFile);
  }

  /** Brings the index up to date (at most once per `minIntervalMs`) and waits up to `waitMs` for it. */
  async snapshot(
    options: { waitMs?: number; minIntervalMs?: number } = {},
  ): Promise<IndexSnapshot> {
    const due = Date.now() - this.lastRefresh >= (options.minIntervalMs ?? 2000);
    if (!this.refreshing && due) {
      this.refreshing = this.refresh()
        .catch((err: unknown) => void (this.progress.error = (err as Error).message))
        .finally(() => {
          if (this.notice)
            this.notice.until = Math.min(this.notice.until, Date.now() + CACHE_NOTICE_MS);
          this.close();
          this.refreshing = null;
          this.lastRefresh = Date.now();
          this.progress.running = false;
        });
    }
    if (this.refreshing)
      await Promise.race([
        this.refreshing,
        new Promise((r) => setTimeout(r, options.waitMs ?? 1500)),
      ]);
    if (this.notice && this.notice.until < Date.now()) this.notice = null;
    return {
      summaries: this.summaries(),
      progress: { ...this.progress, error: this.progress.error ?? this.noticeText() },
      unreadable_records: this.unreadableRecords,
      records_error: this.recordsError,
      skipped_files: this.skipped,
    };
  }

  /** Current summaries (what is done so far during a refresh), by rollout id. */
  summaries(): RolloutSummary[] {
    if (this.sorted?.generation !== this.generation) {
      this.sorted = {
        generation: this.generation,
        list: [...this.memory.values()]
          .map((v) => v.summary)
          .sort((a, b) => compareIds(a.rollout_id, b.rollout_id)),
      };
    }
    return this.sorted.list;
  }

  /** Rollouts held in memory (the weight of this index in the process's bound). */
  get size(): number {
    return this.memory.size;
  }

  /** A value derived from the current summaries (a query's rows, the health report), kept until the index changes. */
  memo<T>(key: string, compute: (all: RolloutSummary[]) => T): T {
    const id = `${this.instance}\n${this.generation}\n${key}`;
    const cache = views();
    const hit = cache.get(id);
    if (hit !== undefined) return hit as T;
    const value = compute(this.summaries());
    cache.set(id, value);
    return value;
  }

  close(): void {
    this.rows.close();
  }

  private async refresh(): Promise<void> {
    const t0 = performance.now();
    const run = this.run;
    const stored = await this.rows.open(checkCacheOffThread);
    if (!this.loaded && stored) await this.load();
    this.loaded = true;
    this.checkCache();
    const [tokens, calls, records] = await Promise.all([
      run.tokensDir ? listStore(run.tokensDir, { stat: true }) : null,
      run.modelCallsDir && run.modelCallsDir !== run.tokensDir
        ? listStore(run.modelCallsDir, { stat: true })
        : null,
      readRolloutRecords(run.rolloutsFile),
    ]);
    this.unreadableRecords = records.unreadable;
    this.recordsError = records.readError;
    this.skipped = [...(tokens?.skipped ?? []), ...(calls?.skipped ?? [])];
    const inputs = keyedInputs(run, tokens, calls, records);
    const stale: KeyedInput[] = [];
    for (const [id, { input, key }] of inputs)
      if (this.memory.get(id)?.key !== key) stale.push({ input, key });
    this.forget([...this.memory.keys()].filter((id) => !inputs.has(id)));
    Object.assign(this.progress, {
      done: 0,
      total: stale.length,
      running: stale.length > 0,
      error: null,
      workers: 0,
      in_workers: 0,
    });
    if (stale.length === 0) {
      // A refresh with nothing to summarise (an empty run, or all cached) has completed too.
      this.progress.last_ms = performance.now() - t0;
      return;
    }

    const keyOf = new Map(stale.map((s) => [s.input.rolloutId, s.key]));
    const pendingRows: SummaryRow[] = [];
    const flush = () => this.rows.write(pendingRows.splice(0));
    const accept = (summary: RolloutSummary) => {
      const key = keyOf.get(summary.rollout_id) as string;
      this.memory.set(summary.rollout_id, { key, summary });
      this.generation++;
      pendingRows.push([summary.rollout_id, key, JSON.stringify(summary)]);
      this.progress.done++;
      if (pendingRows.length >= 200) flush();
    };
    // Always on the index's worker pool, however few: summarising on this thread would block it.
    const list = stale.map((s) => s.input);
    const stats = await summarizeInWorkers(run.dir, list, accept, summarizeSafely);
    Object.assign(this.progress, { workers: stats.workers, in_workers: stats.inWorkers });
    flush();
    this.checkCache();
    this.progress.last_ms = performance.now() - t0;
  }

  /**
   * After the database was rebuilt (damaged on open, mid-read or mid-write), writes what memory
   * holds into the fresh one and keeps a notice; rows that failed validation are re-summarised
   * (they are not in memory, so they are stale) with a notice too.
   */
  private checkCache(): void {
    const damage = this.rows.takeDamage();
    const bad = this.rows.badRows;
    this.rows.badRows = 0;
    if (damage) {
      this.notice = { text: damage, until: Infinity };
      this.rows.write(
        [...this.memory].map(([id, v]): SummaryRow => [id, v.key, JSON.stringify(v.summary)]),
      );
    } else if (bad > 0)
      this.notice = {
        text: bad === 1 ? "1 row was not a valid summary" : `${bad} rows were not valid summaries`,
        until: Infinity,
      };
  }

  private noticeText(): string | null {
    if (!this.notice) return null;
    const what = this.progress.running ? "is being rebuilt" : "was rebuilt";
    return `the summary cache was damaged (${this.notice.text}) and ${what} from the store`;
  }

  /**
   * The summaries an earlier process left in the database (checked against file versions next),
   * read in slices of a few ms with the event loop let through between them: a large cache takes
   * a second or more to read and validate.
   */
  private async load(): Promise<void> {
    let slice = performance.now();
    for (const { id, key, summary } of this.rows.load(CURRENT_KEY_PREFIX)) {
      this.memory.set(id, { key, summary });
      this.generation++;
      if (performance.now() - slice < LOAD_SLICE_MS) continue;
      await new Promise((r) => setImmediate(r));
      slice = performance.now();
    }
  }

  /** Drops rollouts whose files and record are gone. */
  private forget(gone: string[]): void {
    if (gone.length === 0) return;
    for (const id of gone) this.memory.delete(id);
    this.generation++;
    this.rows.delete(gone);
  }
}

/**
 * The index for a run (one per run directory and manifest, shared by every route and page of the
 * process). Each use re-weighs it by the rollouts it holds and marks it most recently used.
 */
export function indexFor(run: RunLayout, root = runsRoot()): SummaryIndex {
  const id = createHash("sha1")
    .update(`${run.dir}\n${JSON.stringify(run.manifest)}`)
    .digest("hex")
    .slice(0, 16);
  const cache = indexes();
  const index = cache.get(id) ?? new SummaryIndex(run, path.join(cacheDir(root), `${id}.sqlite`));
  cache.set(id, index, Math.max(1, index.size));
  return index;
}
