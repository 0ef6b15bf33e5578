// The summary index's SQLite table (better-sqlite3): one row per rollout with its key and summary,
// so a restarted process re-opens an index without re-summarising. Opened only while a refresh
// runs; when the database cannot be opened every call is a no-op and summaries live in memory.
// Does not decide which rows are stale (summary-keys) nor hold summaries (summary-index).
import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { RolloutSummary } from "@/lib/schema";

/** A row as written: rollout id, key, summary JSON. */
export type SummaryRow = [id: string, key: string, summary: string];

export class SummaryRows {
  private db: Database.Database | null = null;
  private upsert: Database.Statement | null = null;

  /** `file` null keeps summaries in memory only (no database at all). */
  constructor(private readonly file: string | null) {}

  /** Opens (creating) the database; false when there is none, and the index runs in memory. */
  open(): boolean {
    if (this.db || !this.file) return this.db !== null;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      const db = new Database(this.file);
      db.pragma("journal_mode = WAL");
      db.exec(
        "CREATE TABLE IF NOT EXISTS rollouts (id TEXT PRIMARY KEY, key TEXT NOT NULL, summary TEXT NOT NULL)",
      );
      this.db = db;
    } catch (err) {
      console.error(
        `summary index ${this.file}: ${(err as Error).message}; keeping summaries in memory only`,
      );
    }
    return this.db !== null;
  }

  /**
   * The rows whose key starts with `prefix` (this build's). Rows another build wrote, or a damaged
   * row, are skipped: their rollouts are re-summarised.
   */
  *load(prefix: string): Generator<{ id: string; key: string; summary: RolloutSummary }> {
    if (!this.db) return;
    const rows = this.db.prepare("SELECT id, key, summary FROM rollouts").iterate() as Iterable<{
      id: string;
      key: string;
      summary: string;
    }>;
    for (const row of rows) {
      if (!row.key.startsWith(prefix)) continue;
      let summary: RolloutSummary;
      try {
        summary = JSON.parse(row.summary) as RolloutSummary;
      } catch {
        continue;
      }
      yield { id: row.id, key: row.key, summary };
    }
  }

  /** Inserts or replaces rows in one transaction. */
  write(rows: SummaryRow[]): void {
    const db = this.db;
    if (!db || rows.length === 0) return;
    const upsert = (this.upsert ??= db.prepare(
      "INSERT INTO rollouts (id, key, summary) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET key = excluded.key, summary = excluded.summary",
    ));
    db.transaction((batch: SummaryRow[]) => batch.forEach((r) => upsert.run(...r)))(rows);
  }

  /** Deletes the rows of rollouts that are gone, in one transaction. */
  delete(ids: string[]): void {
    const db = this.db;
    if (!db || ids.length === 0) return;
    const del = db.prepare("DELETE FROM rollouts WHERE id = ?");
    db.transaction((batch: string[]) => batch.forEach((id) => del.run(id)))(ids);
  }

  close(): void {
    this.db?.close();
    this.db = null;
    this.upsert = null;
  }
}
