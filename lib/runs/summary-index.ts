// The summary index: every rollout's summary, cached in SQLite (better-sqlite3) outside the runs root
// and keyed by the size and mtime of each of the rollout's files plus its record, so a re-open is
// instant and a growing run is brought up to date incrementally. A cold index is computed by worker
// threads (one per core) while what is done stays readable. It never writes inside a store.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { listStore, type FileKind, type RolloutFiles, type StoreListing } from "@/lib/store";
import { readRolloutRecords } from "./rollout-records";
import type { RolloutRecord } from "@/lib/schema";
import { runsRoot, type RunLayout } from "./runs-root";
import { summarizeSafely, type RolloutSummary, type SummarizeInput } from "./summarize";
import { summarizeInWorkers } from "./index-pool";

/** Bump when a summary's shape or the builder's verdicts change: every row is recomputed. */
export const SUMMARY_VERSION = 3;
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

export interface IndexProgress {
  done: number;
  total: number;
  running: boolean;
  error: string | null;
  /** Wall time of the last completed refresh, ms. */
  last_ms: number | null;
  /** Worker threads used by the last refresh, and rollouts they summarised. */
  workers: number;
  in_workers: number;
}

export interface IndexSnapshot {
  summaries: RolloutSummary[];
  progress: IndexProgress;
  /** Rows of rollouts.jsonl that could not be read. */
  unreadable_records: Array<{ line: number; reason: string }>;
  skipped_files: string[];
}

/** Where index databases live: ROLLOUT_LENS_CACHE, else .rollout-lens-cache in the app directory; never inside the runs root. */
export function cacheDir(root = runsRoot()): string {
  const wanted = path.resolve(/*turbopackIgnore: true*/ process.env.ROLLOUT_LENS_CACHE ?? path.join(process.cwd(), ".rollout-lens-cache"));
  const rel = path.relative(root, wanted);
  const inside = rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
  return inside ? path.join(os.tmpdir(), "rollout-lens-cache") : wanted;
}

function fileKey(f: RolloutFiles[keyof RolloutFiles] | undefined): string {
  return f ? `${f.size}:${Math.round(f.mtimeMs)}` : "-";
}

export class SummaryIndex {
  private readonly memory = new Map<string, { key: string; summary: RolloutSummary }>();
  /** Bumped on every change to `memory`; memoised views (sorted list, queries) key on it. */
  private generation = 0;
  private sorted: { generation: number; list: RolloutSummary[] } | null = null;
  private readonly memos = new Map<string, { generation: number; value: unknown }>();
  private db: Database.Database | null = null;
  private loaded = false;
  private refreshing: Promise<void> | null = null;
  private lastRefresh = 0;
  private unreadableRecords: IndexSnapshot["unreadable_records"] = [];
  private skipped: string[] = [];
  readonly progress: IndexProgress = { done: 0, total: 0, running: false, error: null, last_ms: null, workers: 0, in_workers: 0 };

  constructor(
    readonly run: RunLayout,
    private readonly dbFile: string | null,
  ) {}

  /** Brings the index up to date (at most once per `minIntervalMs`) and waits up to `waitMs` for it. */
  async snapshot(options: { waitMs?: number; minIntervalMs?: number } = {}): Promise<IndexSnapshot> {
    const due = Date.now() - this.lastRefresh >= (options.minIntervalMs ?? 2000);
    if (!this.refreshing && due) {
      this.refreshing = this.refresh()
        .catch((err: unknown) => void (this.progress.error = (err as Error).message))
        .finally(() => {
          this.refreshing = null;
          this.lastRefresh = Date.now();
          this.progress.running = false;
        });
    }
    if (this.refreshing) await Promise.race([this.refreshing, new Promise((r) => setTimeout(r, options.waitMs ?? 1500))]);
    return { summaries: this.summaries(), progress: { ...this.progress }, unreadable_records: this.unreadableRecords, skipped_files: this.skipped };
  }

  /** Current summaries (what is done so far during a refresh), by rollout id. */
  summaries(): RolloutSummary[] {
    if (this.sorted?.generation !== this.generation) {
      this.sorted = { generation: this.generation, list: [...this.memory.values()].map((v) => v.summary).sort((a, b) => compareIds(a.rollout_id, b.rollout_id)) };
    }
    return this.sorted.list;
  }

  /** A value derived from the current summaries (a query's rows, the health report), memoised until the index changes. */
  memo<T>(key: string, compute: (all: RolloutSummary[]) => T): T {
    const hit = this.memos.get(key);
    if (hit?.generation === this.generation) return hit.value as T;
    const value = compute(this.summaries());
    if (this.memos.size > 32) this.memos.clear();
    this.memos.set(key, { generation: this.generation, value });
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
      db.exec("CREATE TABLE IF NOT EXISTS rollouts (id TEXT PRIMARY KEY, key TEXT NOT NULL, summary TEXT NOT NULL)");
      this.db = db;
    } catch (err) {
      console.error(`summary index ${this.dbFile}: ${(err as Error).message}; keeping summaries in memory only`);
    }
    return this.db;
  }

  private async refresh(): Promise<void> {
    const t0 = performance.now();
    const run = this.run;
    const db = this.open();
    if (!this.loaded && db) {
      for (const row of db.prepare("SELECT id, key, summary FROM rollouts").iterate() as Iterable<{ id: string; key: string; summary: string }>) {
        this.memory.set(row.id, { key: row.key, summary: JSON.parse(row.summary) as RolloutSummary });
        this.generation++;
      }
    }
    this.loaded = true;
    const [tokens, calls, records] = await Promise.all([
      run.tokensDir ? listStore(run.tokensDir, { stat: true }) : null,
      run.modelCallsDir && run.modelCallsDir !== run.tokensDir ? listStore(run.modelCallsDir, { stat: true }) : null,
      readRolloutRecords(run.rolloutsFile),
    ]);
    this.unreadableRecords = records.unreadable;
    this.skipped = [...(tokens?.skipped ?? []), ...(calls?.skipped ?? [])];
    const inputs = this.inputs(tokens, calls, records.byId);
    const stale: Array<{ input: SummarizeInput; key: string }> = [];
    for (const [id, { input, key }] of inputs) if (this.memory.get(id)?.key !== key) stale.push({ input, key });
    const gone = [...this.memory.keys()].filter((id) => !inputs.has(id));
    for (const id of gone) this.memory.delete(id);
    if (gone.length) this.generation++;
    if (db && gone.length) {
      const del = db.prepare("DELETE FROM rollouts WHERE id = ?");
      db.transaction((ids: string[]) => ids.forEach((id) => del.run(id)))(gone);
    }
    Object.assign(this.progress, { done: 0, total: stale.length, running: stale.length > 0, error: null, workers: 0, in_workers: 0 });
    if (stale.length === 0) return;

    const keyOf = new Map(stale.map((s) => [s.input.rolloutId, s.key]));
    const pendingRows: Array<[string, string, string]> = [];
    const upsert = db?.prepare("INSERT INTO rollouts (id, key, summary) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET key = excluded.key, summary = excluded.summary");
    const flush = () => {
      if (upsert && db && pendingRows.length) db.transaction((rows: typeof pendingRows) => rows.forEach((r) => upsert.run(...r)))(pendingRows.splice(0));
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
    }
    else for (const input of list) accept(await summarizeSafely(input));
    flush();
    this.progress.last_ms = performance.now() - t0;
  }

  private inputs(tokens: StoreListing | null, calls: StoreListing | null, records: Map<string, RolloutRecord>) {
    const run = this.run;
    const out = new Map<string, { input: SummarizeInput; key: string }>();
    const ids = new Set<string>([...(tokens?.rollouts.keys() ?? []), ...(calls?.rollouts.keys() ?? []), ...records.keys()]);
    const patterns = run.manifest.side_call_patterns ?? [];
    const profile = run.manifest.builder_profile ?? "seed";
    for (const id of ids) {
      const f = { ...(calls?.rollouts.get(id) ?? {}), ...(tokens?.rollouts.get(id) ?? {}) };
      const record = records.get(id) ?? null;
      const hasStoreFiles = f.tokens !== undefined || f.incomplete !== undefined || f.intents !== undefined || f.state !== undefined || f.capture !== undefined;
      const recordHash = record ? hashRecord(records, id, record) : "-";
      const key = [CODE_VERSION, profile, patterns.join(","), fileKey(f.tokens), fileKey(f.incomplete), fileKey(f.intents), fileKey(f.state), fileKey(f.capture), recordHash].join("|");
      out.set(id, {
        key,
        input: { rolloutId: id, tokensDir: run.tokensDir, modelCallsDir: run.modelCallsDir, profile, sideCallPatterns: patterns, record, bytes: f.tokens?.size ?? 0, hasStoreFiles, present: Object.keys(f) as FileKind[] },
      });
    }
    return out;
  }
}

// Record hashes, computed once per version of rollouts.jsonl (the reader returns the same Map while
// the file is unchanged), so a refresh of a 50,000-record run does not re-hash every record.
const recordHashes = new WeakMap<Map<string, RolloutRecord>, Map<string, string>>();

function hashRecord(records: Map<string, RolloutRecord>, id: string, record: RolloutRecord): string {
  let hashes = recordHashes.get(records);
  if (!hashes) recordHashes.set(records, (hashes = new Map()));
  let h = hashes.get(id);
  if (h === undefined) hashes.set(id, (h = createHash("sha1").update(JSON.stringify(record)).digest("hex")));
  return h;
}

export function compareIds(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}

const holder = globalThis as typeof globalThis & { __rolloutLensIndexes?: Map<string, SummaryIndex> };
const indexes = (holder.__rolloutLensIndexes ??= new Map<string, SummaryIndex>());

/** The index for a run (one per run directory and manifest, shared by every route and page). */
export function indexFor(run: RunLayout, root = runsRoot()): SummaryIndex {
  const id = createHash("sha1").update(`${run.dir}\n${JSON.stringify(run.manifest)}`).digest("hex").slice(0, 16);
  let index = indexes.get(id);
  if (!index) {
    index = new SummaryIndex(run, path.join(cacheDir(root), `${id}.sqlite`));
    indexes.set(id, index);
  }
  return index;
}
