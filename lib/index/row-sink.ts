// Summaries on their way into the index's rows: written in batches, and counted as done only once
// written, so the progress's count plus what waits is always the run's rollouts. Stand-in rows from
// records (a store rollout's row until its store summary replaces it) are counted apart.
import "server-only";
import type { IndexProgress, RolloutSummary } from "@/lib/schema";
import type { IndexedSummary } from "@/lib/rollout";
import { indexTextSoon } from "./search";
import type { SummaryRows } from "./rows";
import { idOfRow, type MadeRow, type SummaryRow } from "./columns";

/** Rows written per statement at most. */
const BATCH = 1000;
/** Longest a summary waits to be written. */
const FLUSH_MS = 200;

/**
 * The key of a row written from a store rollout's record before its store is read: no summary's key
 * (./keys keyOf), so the row stays stale until its store summary replaces it.
 */
export const FROM_RECORD_KEY = "from-record";

/** Summaries waiting to be written, flushed in batches. */
export class RowSink {
  private readonly pending: Array<SummaryRow | MadeRow> = [];
  /** Store rollouts whose row stands in from their record (progress.from_records counts them). */
  readonly standIns = new Set<string>();
  private lastFlush = performance.now();
  constructor(
    private readonly rows: SummaryRows,
    private readonly progress: IndexProgress,
  ) {}

  add(summary: IndexedSummary, key: string, replaces: boolean): void {
    this.push({ summary, key, replaces });
  }

  /** A record-only row made where its record was read (./record-range). */
  addMade(row: MadeRow): void {
    this.push(row);
  }

  private push(row: SummaryRow | MadeRow): void {
    this.pending.push(row);
    // The first summary is written at once (the table never reads "0 of 0" for long), and slow
    // ones (the store's) at least every FLUSH_MS, so the progress moves with them.
    const due = this.progress.done === 0 || performance.now() - this.lastFlush > FLUSH_MS;
    if (this.pending.length >= BATCH || due) this.flush();
  }

  /** Writes what waits; only then is it done, so rows counted + pending is the run's rollouts. */
  flush(): void {
    const rows = this.pending.splice(0);
    this.lastFlush = performance.now();
    this.rows.write(rows);
    // Their trigrams follow, off this thread (./search/indexer).
    if (rows.some((r) => "summary" in r && r.summary.search_text)) indexTextSoon(this.rows);
    this.progress.done += rows.length;
    for (const r of rows)
      if (this.standIns.delete(idOfRow(r))) this.progress.from_records--;
      else if (r.replaces && this.progress.replacing > 0) this.progress.replacing--;
  }

  /** Rows from records that stand in for store rollouts until their summaries replace them. */
  standIn(summaries: RolloutSummary[]): void {
    for (const s of summaries) this.standIns.add(s.rollout_id);
    this.progress.from_records += summaries.length;
    this.rows.write(
      summaries.map((summary) => ({ summary, key: FROM_RECORD_KEY, replaces: false })),
    );
  }
}
