// The summary index: one typed row per rollout in SQLite (./rows) outside the runs root, each
// keyed by its files' versions and record hash (./keys), so a re-open is instant and a growing run
// is updated incrementally; the table, filters and health are queries over it (./sql,
// lib/health/sql), and this process holds no per-rollout state. Records come first (./record-rows)
// and rollouts with no token store are summarised from their record at once, while store rollouts
// are summarised on the index's worker threads (./pool), never on this one. A damaged database is
// rebuilt (with a notice for a while). Never writes inside a store.
import "server-only";
import os from "node:os";
import path from "node:path";
import { createHash, randomUUID } from "node:crypto";
import { processCache } from "@/lib/cache";
import { GenerationViews } from "./views";
import { isInside, nextTurn } from "@/lib/store";
import type { IndexProgress, RolloutSummary } from "@/lib/schema";
import { waitOnIndex } from "./wait";
import { meta, noRecordsState, setMeta, syncRecords, type RecordsState } from "./record-rows";
import { isDamage } from "@/lib/rollout";
import { runsRoot, type RunLayout } from "@/lib/runs";
import { checkCacheOffThread, listStoreOffThread, prestartIndexWorkers } from "./pool";
import { updateRows } from "./update";
import { RecordsFollower } from "./records-follow";
import { seedIndexFromShards, shardDirFor } from "./shards";
import { inputsFingerprint } from "./keys";
import { endRefresh } from "./settled";
import { SummaryRows } from "./rows";
import { allSummaries, countRows } from "./sql";

export { SUMMARY_VERSION } from "./keys";
/** How long the notice of a rebuilt cache stays in the progress after the rebuild is done. */
export const CACHE_NOTICE_MS = 60_000;
/** Run indexes kept in this process (each holds its progress and, while in use, a database handle). */
export const INDEX_RUNS_BOUND = 64;

const indexes = () => processCache<SummaryIndex>("summary-indexes", "entries", INDEX_RUNS_BOUND);
export type { IndexProgress };

export interface IndexSnapshot {
  /** Rollouts with a summary now (what is done so far during a refresh). */
  count: number;
  progress: IndexProgress;
  /** Rows of rollouts.jsonl that could not be read (the first thousand; `unreadable_count` all). */
  unreadable_records: Array<{ line: number; reason: string }>;
  unreadable_count: number;
  /** The line number of rollouts.jsonl's unterminated last line that does not parse (its record is missing). */
  records_torn_line: number | null;
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
  /** Tells this instance's views apart from those of another index of the same run. */
  private readonly instance = randomUUID();
  private readonly views = new GenerationViews(this.instance);
  readonly rows: SummaryRows;
  private checked = false;
  /** The run's shard set (ROLLOUT_LENS_SHARDS) is read once per index, before its first update. */
  private shardsSeeded = false;
  /** The database was rebuilt during a refresh: the next look refreshes at once. */
  private again = false;
  private refreshing: Promise<void> | null = null;
  private lastRefresh = 0;
  private records: RecordsState = noRecordsState();
  private skipped: string[] = [];
  private recordSync: Promise<RecordsState> | null = null;
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
    from_records: 0,
    replacing: 0,
    records_read: null,
  };

  constructor(
    readonly run: RunLayout,
    dbFile: string | null,
  ) {
    this.rows = new SummaryRows(dbFile);
  }

  /**
   * Brings the index up to date (at most once per `minIntervalMs`) and waits up to `waitMs` for it;
   * `brief`, a page's wait, ends sooner when the index cannot end soon (./wait); "counted" ends it
   * only once the count says so (not while a store is still being listed).
   */
  async snapshot(
    options: { waitMs?: number; minIntervalMs?: number; brief?: boolean | "counted" } = {},
  ): Promise<IndexSnapshot> {
    const due = Date.now() - this.lastRefresh >= (options.minIntervalMs ?? 2000);
    if (!this.refreshing && due) {
      this.refreshing = this.refresh()
        .catch((err: unknown) => void (this.progress.error = (err as Error).message))
        .finally(() => {
          if (this.notice)
            this.notice.until = Math.min(this.notice.until, Date.now() + CACHE_NOTICE_MS);
          // An idle index holds no handle; the next query re-opens it (a millisecond).
          try {
            this.count(); // kept for the snapshot's answer, so it need not re-open the database
          } catch {
            // a database that fails here is rebuilt by the next refresh
          }
          this.close();
          this.refreshing = null;
          this.lastRefresh = this.again ? 0 : Date.now();
          this.again = false;
          Object.assign(this.progress, { running: false, records_read: null });
        });
    }
    if (this.refreshing)
      await waitOnIndex(this.refreshing, this.progress, options.waitMs ?? 1500, options.brief);
    if (this.notice && this.notice.until < Date.now()) this.notice = null;
    // A first look in flight is running before it counts anything (its cache check, listing).
    const running = this.progress.running || (this.refreshing !== null && this.lastRefresh === 0);
    return {
      count: this.count(),
      progress: { ...this.progress, running, error: this.progress.error ?? this.noticeText() },
      unreadable_records: this.records.unreadable,
      unreadable_count: this.records.unreadableCount,
      records_torn_line: this.records.tornLine ?? null,
      records_error: this.records.readError,
      skipped_files: this.skipped,
    };
  }

  /** Complete once, and its last refresh took over 500 ms (a large store's listing): ./served. */
  get rechecksSlowly(): boolean {
    return this.lastRefresh > 0 && (this.progress.last_ms ?? 0) > 500;
  }

  /** Rollouts with a summary (counted once per generation). */
  count(): number {
    return this.memo("count", () => countRows(this.rows));
  }

  /** Every summary as stored (no run-level severity), in natural id order: for small runs and tests. */
  all(): RolloutSummary[] {
    return allSummaries(this.rows);
  }

  /** Changes whenever the rows do (and when this index is made anew): a key for derived values. */
  fingerprint(): string {
    return `${this.instance}:${this.rows.generation}`;
  }

  /** The rows as served changed though no row did (a run-level fact, ./trainer-facts). */
  servedChanged(): void {
    this.rows.generation++;
  }

  /** A value derived from the current rows (a page, the health report), kept until they change. */
  memo<T>(key: string, compute: () => T): T {
    return this.views.get(this.rows.generation, key, compute);
  }

  close(): void {
    this.rows.close();
  }

  /** Whether rollouts.jsonl holds a record of `id` (the records table brought up to date first). */
  async hasRecord(id: string): Promise<boolean> {
    await this.syncedRecords();
    return this.rows.handle.prepare("SELECT 1 FROM records WHERE id = ?").get(id) !== undefined;
  }

  /**
   * The records table at the file's current version: one sync at a time, shared by its callers
   * (`follow` is told of a sync's batches); read on the workers unless they read a store.
   */
  syncedRecords(follow?: RecordsFollower | null): Promise<RecordsState> {
    const { rolloutsFile: file, tokensDir, modelCallsDir } = this.run;
    const read = { rows: follow?.rowSpec ?? null, workers: !tokensDir && !modelCallsDir };
    this.recordSync ??= this.rows
      .open(checkCacheOffThread)
      .then(() => syncRecords(() => this.rows.handle, file, follow?.onBatch, read))
      .finally(() => (this.recordSync = null));
    return this.recordSync;
  }

  private async refresh(): Promise<void> {
    const t0 = performance.now();
    await this.rows.open(checkCacheOffThread);
    // The open (a cold one creates the schema) and the first queries take turns of their own.
    await nextTurn();
    const generation = this.rows.generation;
    this.checkCache();
    try {
      await this.update();
    } catch (err) {
      // Damaged under a read (a page gone bad since the open): rebuilt, and the update runs again.
      if (!isDamage(err)) throw err;
      this.rows.recover(err);
      this.checkCache();
      await this.update();
    }
    this.checkCache(true);
    // The run's health computed while the progress still says the index runs (./settled).
    await endRefresh(this, generation);
    this.progress.last_ms = performance.now() - t0;
  }

  private async update(): Promise<void> {
    const run = this.run;
    // An index never completed summarises from the store: its workers load while the store is listed.
    const stores = run.tokensDir !== null || run.modelCallsDir !== null;
    const first = !meta(this.rows.handle, "indexed_inputs");
    if (stores && first) prestartIndexWorkers();
    // A first index of a run without stores (or shards) shows rows as rollouts.jsonl is read.
    const follow =
      first && !stores && !shardDirFor(run)
        ? new RecordsFollower(run, this.rows, this.progress)
        : null;
    const [tokens, calls, records] = await Promise.all([
      run.tokensDir ? listStoreOffThread(run.tokensDir) : null,
      run.modelCallsDir && run.modelCallsDir !== run.tokensDir
        ? listStoreOffThread(run.modelCallsDir)
        : null,
      this.syncedRecords(follow),
    ]);
    follow?.finish();
    this.records = records;
    this.skipped = [...(tokens?.skipped ?? []), ...(calls?.skipped ?? [])];
    // Nothing changed since the last complete refresh (this process's or an earlier one's): no
    // row can be stale, so the key pass over every rollout is skipped.
    const inputs = inputsFingerprint(run, tokens, calls, records.version);
    if (meta(this.rows.handle, "indexed_inputs") === inputs) {
      Object.assign(this.progress, { done: 0, total: 0, running: false, error: null });
      return;
    }
    setMeta(this.rows.handle, "indexed_inputs", "");
    if (stores) prestartIndexWorkers();
    if (!this.shardsSeeded) {
      this.shardsSeeded = true;
      const said = await seedIndexFromShards(run, this.rows, tokens, calls);
      if (said) console.warn(`rollout-lens: ${said}`);
    }
    await updateRows(run, this.rows, tokens, calls, this.progress, follow?.started === true);
    if (!this.rows.hasDamage()) setMeta(this.rows.handle, "indexed_inputs", inputs);
  }

  /**
   * After the database was rebuilt (damaged on open, mid-read or mid-write) keeps a notice, and
   * makes the next look refresh at once (the rebuilt database lacks what was written before);
   * on the first refresh, drops damaged rows (re-summarised) with a notice too.
   */
  private checkCache(atEnd = false): void {
    const damage = this.rows.takeDamage();
    const bad = this.checked ? 0 : this.rows.dropDamaged();
    this.checked = true;
    // Dropped rows are re-summarised: the next update must not skip its key pass.
    if (bad > 0) setMeta(this.rows.handle, "indexed_inputs", "");
    if (damage) {
      this.notice = { text: damage, until: Infinity };
      this.again = atEnd;
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
}

/**
 * The index for a run (one per run directory and manifest, shared by every route and page of the
 * process), marked most recently used on each use.
 */
export function indexFor(run: RunLayout, root = runsRoot()): SummaryIndex {
  const id = createHash("sha1")
    .update(`${run.dir}\n${JSON.stringify(run.manifest)}`)
    .digest("hex")
    .slice(0, 16);
  const cache = indexes();
  const index = cache.get(id) ?? new SummaryIndex(run, path.join(cacheDir(root), `${id}.sqlite`));
  cache.set(id, index, 1);
  return index;
}
