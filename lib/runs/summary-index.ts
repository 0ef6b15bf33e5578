// The summary index: every rollout's summary, cached in SQLite (better-sqlite3) outside the runs
// root and keyed by the version (lib/store/file-version) of each of the rollout's files plus a hash
// of its record, so a re-open is instant and a growing run is updated incrementally. A cold index
// is computed by worker threads while what is done stays readable. Never writes inside a store.
import "server-only";
import { mkdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash, randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { processCache } from "@/lib/cache/registry";
import { listStore, type FileKind, type StoreListing } from "@/lib/store";
import { isInside } from "@/lib/store/confine";
import { versionOf } from "@/lib/store/file-version";
import type { IndexProgress, RolloutSummary } from "@/lib/schema";
import { compareIds } from "./rollout-query";
import { readRolloutRecords, recordHash, type RolloutRecords } from "./rollout-records";
import { runsRoot, type RunLayout } from "./runs-root";
import { summarizeSafely, type SummarizeInput } from "./summarize";
import { summarizeInWorkers } from "./index-pool";

/** Bump when a summary's shape or the builder's verdicts change: every row is recomputed. */
export const SUMMARY_VERSION = 4;
/**
 * Rows are also keyed by the app build (Next's BUILD_ID), so a rebuilt app never serves summaries
 * an older builder computed; a restart of the same build re-opens the index instantly.
 */
const CODE_VERSION = (() => {
  try {
    return `${SUMMARY_VERSION}:${readFileSync(path.join(/*turbopackIgnore: true*/ process.cwd(), ".next", "BUILD_ID"), "utf8").trim()}`;
  } catch {
    return `${SUMMARY_VERSION}:dev`;
  }
})();
const WORKER_THRESHOLD = 48;

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
  /** Open only while a refresh runs, so an idle or evicted index holds no file handle. */
  private db: Database.Database | null = null;
  private loaded = false;
  private refreshing: Promise<void> | null = null;
  private lastRefresh = 0;
  private unreadableRecords: IndexSnapshot["unreadable_records"] = [];
  private skipped: string[] = [];
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
    private readonly dbFile: string | null,
  ) {}

  /** Brings the index up to date (at most once per `minIntervalMs`) and waits up to `waitMs` for it. */
  async snapshot(
    options: { waitMs?: number; minIntervalMs?: number } = {},
  ): Promise<IndexSnapshot> {
    const due = Date.now() - this.lastRefresh >= (options.minIntervalMs ?? 2000);
    if (!this.refreshing && due) {
      this.refreshing = this.refresh()
        .catch((err: unknown) => void (this.progress.error = (err as Error).message))
        .finally(() => {
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
    return {
      summaries: this.summaries(),
      progress: { ...this.progress },
      unreadable_records: this.unreadableRecords,
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
    this.db?.close();
    this.db = null;
  }

  private open(): Database.Database | null {
    if (this.db || !this.dbFile) return this.db;
    try {
      mkdirSync(path.dirname(this.dbFile), { recursive: true });
      const db = new Database(this.dbFile);
      db.pragma("journal_mode = WAL");
      db.exec(
        "CREATE TABLE IF NOT EXISTS rollouts (id TEXT PRIMARY KEY, key TEXT NOT NULL, summary TEXT NOT NULL)",
      );
      this.db = db;
    } catch (err) {
      console.error(
        `summary index ${this.dbFile}: ${(err as Error).message}; keeping summaries in memory only`,
      );
    }
    return this.db;
  }

  private async refresh(): Promise<void> {
    const t0 = performance.now();
    const run = this.run;
    const db = this.open();
    if (!this.loaded && db) this.load(db);
    this.loaded = true;
    const [tokens, calls, records] = await Promise.all([
      run.tokensDir ? listStore(run.tokensDir, { stat: true }) : null,
      run.modelCallsDir && run.modelCallsDir !== run.tokensDir
        ? listStore(run.modelCallsDir, { stat: true })
        : null,
      readRolloutRecords(run.rolloutsFile),
    ]);
    this.unreadableRecords = records.unreadable;
    this.skipped = [...(tokens?.skipped ?? []), ...(calls?.skipped ?? [])];
    const inputs = this.inputs(tokens, calls, records);
    const stale: Array<{ input: SummarizeInput; key: string }> = [];
    for (const [id, { input, key }] of inputs)
      if (this.memory.get(id)?.key !== key) stale.push({ input, key });
    this.forget(
      [...this.memory.keys()].filter((id) => !inputs.has(id)),
      db,
    );
    Object.assign(this.progress, {
      done: 0,
      total: stale.length,
      running: stale.length > 0,
      error: null,
      workers: 0,
      in_workers: 0,
    });
    if (stale.length === 0) return;

    const keyOf = new Map(stale.map((s) => [s.input.rolloutId, s.key]));
    const pendingRows: Array<[string, string, string]> = [];
    const upsert = db?.prepare(
      "INSERT INTO rollouts (id, key, summary) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET key = excluded.key, summary = excluded.summary",
    );
    const flush = () => {
      if (upsert && db && pendingRows.length)
        db.transaction((rows: typeof pendingRows) => rows.forEach((r) => upsert.run(...r)))(
          pendingRows.splice(0),
        );
    };
    const accept = (summary: RolloutSummary) => {
      const key = keyOf.get(summary.rollout_id) as string;
      this.memory.set(summary.rollout_id, { key, summary });
      this.generation++;
      pendingRows.push([summary.rollout_id, key, JSON.stringify(summary)]);
      this.progress.done++;
      if (pendingRows.length >= 200) flush();
    };
    const list = stale.map((s) => s.input);
    if (list.length >= WORKER_THRESHOLD) {
      const stats = await summarizeInWorkers(list, accept, summarizeSafely);
      Object.assign(this.progress, { workers: stats.workers, in_workers: stats.inWorkers });
    } else for (const input of list) accept(await summarizeSafely(input));
    flush();
    this.progress.last_ms = performance.now() - t0;
  }

  /** The summaries an earlier process left in the database (checked against file versions next). */
  private load(db: Database.Database): void {
    // Rows another build wrote (or a damaged row) are not served: their rollouts are re-summarised.
    const current = `${CODE_VERSION}|`;
    for (const row of db.prepare("SELECT id, key, summary FROM rollouts").iterate() as Iterable<{
      id: string;
      key: string;
      summary: string;
    }>) {
      if (!row.key.startsWith(current)) continue;
      let summary: RolloutSummary;
      try {
        summary = JSON.parse(row.summary) as RolloutSummary;
      } catch {
        continue;
      }
      this.memory.set(row.id, { key: row.key, summary });
      this.generation++;
    }
  }

  /** Drops rollouts whose files and record are gone. */
  private forget(gone: string[], db: Database.Database | null): void {
    if (gone.length === 0) return;
    for (const id of gone) this.memory.delete(id);
    this.generation++;
    if (!db) return;
    const del = db.prepare("DELETE FROM rollouts WHERE id = ?");
    db.transaction((ids: string[]) => ids.forEach((id) => del.run(id)))(gone);
  }

  /** Every rollout of the run (store files or record) with its summariser input and row key. */
  private inputs(tokens: StoreListing | null, calls: StoreListing | null, records: RolloutRecords) {
    const run = this.run;
    const out = new Map<string, { input: SummarizeInput; key: string }>();
    const ids = new Set<string>([
      ...(tokens?.rollouts.keys() ?? []),
      ...(calls?.rollouts.keys() ?? []),
      ...records.byId.keys(),
    ]);
    const patterns = run.manifest.side_call_patterns ?? [];
    const profile = run.manifest.builder_profile ?? "seed";
    for (const id of ids) {
      const f = { ...(calls?.rollouts.get(id) ?? {}), ...(tokens?.rollouts.get(id) ?? {}) };
      const record = records.byId.get(id) ?? null;
      const hasStoreFiles =
        f.tokens !== undefined ||
        f.incomplete !== undefined ||
        f.intents !== undefined ||
        f.state !== undefined ||
        f.capture !== undefined;
      const files = [f.tokens, f.incomplete, f.intents, f.state, f.capture].map(versionOf);
      const key = [
        CODE_VERSION,
        profile,
        patterns.join(","),
        ...files,
        recordHash(records, id),
      ].join("|");
      out.set(id, {
        key,
        input: {
          rolloutId: id,
          tokensDir: run.tokensDir,
          modelCallsDir: run.modelCallsDir,
          profile,
          sideCallPatterns: patterns,
          record,
          bytes: f.tokens?.size ?? 0,
          hasStoreFiles,
          present: Object.keys(f) as FileKind[],
        },
      });
    }
    return out;
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
