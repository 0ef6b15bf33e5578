// The summary index's SQLite table (better-sqlite3): one row per rollout with its key and summary,
// so a restarted process re-opens an index without re-summarising. Opened only while a refresh
// runs; when the database cannot be opened every call is a no-op and summaries live in memory.
// The cache is only an optimisation, so it is never trusted: a database that is not SQLite, fails
// `PRAGMA quick_check` (./cache-check, run off this thread by the caller), has another schema, or
// errors while read or written is moved aside and rebuilt (`damage` says why), and every row read
// is validated. Never fsyncs (`synchronous = OFF`): a cache lost to a crash is rebuilt, and a sync
// write on a busy disk blocked the main thread for most of a second. Does not decide which rows
// are stale (summary-keys) nor hold summaries (summary-index).
import "server-only";
import { mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { rolloutSummarySchema, type RolloutSummary } from "@/lib/schema";
import { cacheDamage, DamagedCache, describeDamage, isDamage } from "./cache-check";

/** A row as written: rollout id, key, summary JSON. */
export type SummaryRow = [id: string, key: string, summary: string];

/** The table's layout version (`PRAGMA user_version`); bump when the table changes. */
export const SCHEMA_VERSION = 1;
const COLUMNS = ["id", "key", "summary"];

export class SummaryRows {
  private db: Database.Database | null = null;
  private upsert: Database.Statement | null = null;
  /** Why the database was last moved aside and rebuilt; read (and cleared) by `takeDamage`. */
  private damage: string | null = null;
  /** Rows skipped by the last `load` because they failed validation (re-summarised). */
  badRows = 0;
  /**
   * `quick_check` reads every page, so it runs before the first open only; later opens (every
   * refresh) check the schema, and a page damaged since fails the statement that reads it.
   */
  private verified = false;

  /** `file` null keeps summaries in memory only (no database at all). */
  constructor(private readonly file: string | null) {}

  /**
   * Opens (creating, or rebuilding a damaged one); false when there is none: the index runs in
   * memory. `check` runs the integrity check (./cache-check) before the first open: the caller
   * runs it on a worker; it runs here only when none is given. One that fails is tried next time.
   */
  async open(check = async (file: string) => cacheDamage(file)): Promise<boolean> {
    if (this.db || !this.file) return this.db !== null;
    const file = this.file;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
    } catch (err) {
      return this.inMemory(err);
    }
    if (!this.verified) {
      const damage = await check(file).then(
        (d) => ((this.verified = true), d),
        () => null,
      );
      if (this.db) return true; // opened meanwhile
      if (damage) {
        this.rebuild(damage);
        return this.db !== null;
      }
    }
    try {
      this.db = this.checked(new Database(file));
    } catch (err) {
      this.failed(err);
    }
    return this.db !== null;
  }

  /** Why the database was rebuilt since the last call, or null. */
  takeDamage(): string | null {
    const d = this.damage;
    this.damage = null;
    return d;
  }

  /**
   * The rows whose key starts with `prefix` (this build's) and whose summary is valid. Rows another
   * build wrote, or damaged ones (not JSON, not a summary, another rollout's) are skipped: their
   * rollouts are re-summarised. A database that errors mid-read is rebuilt and yields no more.
   */
  *load(prefix: string): Generator<{ id: string; key: string; summary: RolloutSummary }> {
    this.badRows = 0;
    if (!this.db) return;
    let rows: Iterator<unknown>;
    try {
      rows = this.db.prepare("SELECT id, key, summary FROM rollouts").iterate();
    } catch (err) {
      return void this.failed(err);
    }
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = rows.next();
      } catch (err) {
        return void this.failed(err);
      }
      if (next.done) return;
      const { id, key, summary } = next.value as Record<string, unknown>;
      if (typeof id !== "string" || typeof key !== "string" || !key.startsWith(prefix)) continue;
      const parsed = typeof summary === "string" ? parseSummary(summary) : null;
      if (parsed?.rollout_id !== id) {
        this.badRows++;
        continue;
      }
      yield { id, key, summary: parsed };
    }
  }

  /** Inserts or replaces rows in one transaction; a database that fails is rebuilt and written again. */
  write(rows: SummaryRow[]): void {
    if (rows.length === 0) return;
    this.guarded((db) => {
      const upsert = (this.upsert ??= db.prepare(
        "INSERT INTO rollouts (id, key, summary) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET key = excluded.key, summary = excluded.summary",
      ));
      db.transaction((batch: SummaryRow[]) => batch.forEach((r) => upsert.run(...r)))(rows);
    });
  }

  /** Deletes the rows of rollouts that are gone, in one transaction. */
  delete(ids: string[]): void {
    if (ids.length === 0) return;
    this.guarded((db) => {
      const del = db.prepare("DELETE FROM rollouts WHERE id = ?");
      db.transaction((batch: string[]) => batch.forEach((id) => del.run(id)))(ids);
    });
  }

  close(): void {
    try {
      this.db?.close();
    } catch {
      // closing a damaged database can fail; it is dropped either way
    }
    this.db = null;
    this.upsert = null;
  }

  /** Runs `op`; a damaged database is rebuilt and `op` tried once more on the fresh one. */
  private guarded(op: (db: Database.Database) => void): void {
    for (let attempt = 0; attempt < 2 && this.db; attempt++) {
      try {
        return op(this.db);
      } catch (err) {
        this.failed(err);
      }
    }
  }

  /** A damaged database is rebuilt; any other failure (disk full, locked) drops it for this refresh. */
  private failed(err: unknown): void {
    if (isDamage(err)) this.rebuild(describeDamage(err));
    else this.inMemory(err);
  }

  /** `db` once its schema version and table layout check out; throws DamagedCache if not. */
  private checked(db: Database.Database): Database.Database {
    try {
      db.pragma("synchronous = OFF");
      const version = db.pragma("user_version", { simple: true }) as number;
      const columns = (db.pragma("table_info(rollouts)") as Array<{ name: string }>).map(
        (c) => c.name,
      );
      const hasTable = columns.length > 0;
      if (version !== 0 && version !== SCHEMA_VERSION)
        throw new DamagedCache(`schema version ${version}, expected ${SCHEMA_VERSION}`);
      // Version 0 with the right columns is this table before it was versioned: kept.
      if (hasTable && columns.join(",") !== COLUMNS.join(","))
        throw new DamagedCache(
          `table rollouts has columns (${columns.join(", ")}), expected (${COLUMNS.join(", ")})`,
        );
      const others = db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'rollouts' AND name NOT LIKE 'sqlite_%'",
        )
        .all() as Array<{ name: string }>;
      if (others.length > 0)
        throw new DamagedCache(`unexpected tables ${others.map((t) => t.name).join(", ")}`);
      db.pragma("journal_mode = WAL");
      db.exec(
        "CREATE TABLE IF NOT EXISTS rollouts (id TEXT PRIMARY KEY, key TEXT NOT NULL, summary TEXT NOT NULL)",
      );
      if (version !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
      return db;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /**
   * Moves the damaged database aside (`<file>.damaged`, replacing an older one, for a post-mortem)
   * and opens a fresh one; when even that fails the index keeps summaries in memory.
   */
  private rebuild(reason: string): void {
    this.close();
    const file = this.file as string;
    this.damage = reason;
    console.error(`summary index ${file}: ${reason}; moved aside to ${file}.damaged and rebuilt`);
    try {
      try {
        renameSync(file, `${file}.damaged`);
      } catch {
        rmSync(file, { force: true });
      }
      for (const side of ["-wal", "-shm", "-journal"]) rmSync(file + side, { force: true });
      this.db = this.checked(new Database(file));
      this.verified = true; // a fresh database has no pages to check
    } catch (err) {
      this.inMemory(err);
    }
  }

  private inMemory(err: unknown): false {
    this.close();
    console.error(
      `summary index ${this.file}: ${(err as Error).message}; keeping summaries in memory only`,
    );
    return false;
  }
}

function parseSummary(text: string): RolloutSummary | null {
  try {
    const parsed = rolloutSummarySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
