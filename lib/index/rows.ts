// The summary index's database (better-sqlite3): one typed row per rollout (./columns) with its
// key, its tags, the run's rollout records (./record-rows) and a few facts (meta), so the table,
// its filters and the health are queries, and a restarted process re-opens an index without re-
// summarising. When the file cannot be opened the same tables live in an in-memory database: one
// engine either way. The cache is only an optimisation, so it is never trusted: a database that is
// not SQLite, fails `PRAGMA quick_check` (lib/rollout/cache-check, run off this thread by the
// caller), has another schema, or errors while read or written is moved aside and rebuilt (`damage`
// says why), and damaged rows are dropped (re-summarised). Never fsyncs (`synchronous = OFF`): a
// cache lost to a crash is rebuilt. Does not decide which rows are stale (lib/index/keys).
import "server-only";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { cacheDamage, DamagedCache, describeDamage, isDamage } from "@/lib/rollout";
import { turnQueue } from "@/lib/store";
import { CREATE_RECORDS } from "./record-rows";
import * as search from "./search";
import {
  CREATE_INDEXES,
  CREATE_SUMMARIES,
  CREATE_TAGS,
  DAMAGED_ROW_SQL,
  idOfRow,
  type MadeRow,
  rowOf,
  SUMMARY_COLUMNS,
  type SummaryRow,
  tagsOf,
} from "./columns";

/** The layout version (`PRAGMA user_version`); bump when a table changes. */
export const SCHEMA_VERSION = 7;
const TABLES = ["meta", "records", "summaries", "summary_tags", ...search.SEARCH_TABLES];
/** The health's tag counts sum the tags' weights: (tag, n) makes them index-only. */
const HEALTH_INDEXES = ["CREATE INDEX IF NOT EXISTS t_tag_n ON summary_tags (tag, n)"];

const openTurn = turnQueue(); // index opens take turns, one a turn (lib/store/io/turn)
export class SummaryRows {
  private db: Database.Database | null = null;
  private statements: {
    upsert: Database.Statement;
    untag: Database.Statement;
    tag: Database.Statement;
  } | null = null;
  /** Why the database was last moved aside and rebuilt; read (and cleared) by `takeDamage`. */
  private damage: string | null = null;
  /** Rows dropped by the last `dropDamaged` (re-summarised). */
  badRows = 0;
  /** `quick_check` reads every page, so it runs before the first open only. */
  private verified = false;
  /** The database lives in memory (no file, or the file could not be opened). */
  memoryOnly = false;
  /** Bumped whenever the tables change: derived views (pages, health) key on it. */
  generation = 0;

  /** `file` null keeps the tables in memory only. */
  constructor(readonly file: string | null) {
    if (file === null) this.openMemory();
  }

  /**
   * Opens (creating, or rebuilding a damaged one). `check` runs the integrity check
   * (lib/rollout/cache-check) before the first open: the caller runs it on a worker.
   */
  async open(check = async (file: string) => cacheDamage(file)): Promise<void> {
    if (this.db || !this.file) return;
    const file = this.file;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
    } catch (err) {
      return this.inMemory(err);
    }
    // A database not there yet has nothing to check (nor waits on a worker to load for it).
    if (!this.verified && !existsSync(file)) this.verified = true;
    if (!this.verified) {
      const damage = await check(file).then(
        (d) => ((this.verified = true), d),
        () => null,
      );
      if (this.db) return; // opened meanwhile
      if (damage) return this.rebuild(damage);
    }
    await openTurn(); // a cold open creates the schema, attaches the trigram file: 5-10 ms
    if (!this.db) this.openSync();
  }

  /** Whether a handle is open now (an idle index holds none). */
  get isOpen(): boolean {
    return this.db !== null;
  }

  /** The open database (opening it when a query comes before a refresh). */
  get handle(): Database.Database {
    if (!this.db) this.openSync();
    return this.db as Database.Database;
  }

  /** Why the database was rebuilt since the last call, or null. */
  takeDamage(): string | null {
    const d = this.damage;
    this.damage = null;
    return d;
  }

  /** Whether the database was rebuilt since the last `takeDamage` (without clearing it). */
  hasDamage(): boolean {
    return this.damage !== null;
  }

  /** Drops rows whose columns are damaged (their rollouts are re-summarised); how many. */
  dropDamaged(): number {
    let n = 0;
    this.guarded((db) => {
      n = db.prepare(`DELETE FROM summaries WHERE ${DAMAGED_ROW_SQL}`).run().changes;
      if (n > 0) {
        db.prepare("DELETE FROM summary_tags WHERE id NOT IN (SELECT id FROM summaries)").run();
        search.dropOrphanText(db);
        this.generation++;
      }
    });
    return n;
  }

  /** Inserts or replaces rows (and their tags) in one transaction. */
  write(rows: Array<SummaryRow | MadeRow>): void {
    if (rows.length === 0) return;
    this.guarded((db) => {
      const st = (this.statements ??= {
        upsert: db.prepare(
          `INSERT OR REPLACE INTO summaries (${SUMMARY_COLUMNS.join(", ")}) VALUES (${SUMMARY_COLUMNS.map(() => "?").join(", ")})`,
        ),
        untag: db.prepare("DELETE FROM summary_tags WHERE id = ?"),
        tag: db.prepare("INSERT OR REPLACE INTO summary_tags (id, tag, n) VALUES (?, ?, ?)"),
      });
      db.transaction(() => {
        for (const r of rows) {
          const id = idOfRow(r);
          const text = "made" in r ? undefined : r.summary.search_text;
          st.upsert.run(...("made" in r ? r.made.values : rowOf(r.summary, r.key)));
          if (r.replaces !== false) st.untag.run(id);
          for (const [tag, n] of "made" in r ? r.made.tags : tagsOf(r.summary))
            st.tag.run(id, tag, n);
          if (r.replaces !== false || text) search.writeSearchText(db, id, text);
        }
      })();
      this.generation++;
    });
  }

  /** Deletes the rows of rollouts that are gone, in one transaction. */
  delete(ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.guarded((db) => {
      const del = db.prepare("DELETE FROM summaries WHERE id = ?");
      const untag = db.prepare("DELETE FROM summary_tags WHERE id = ?");
      db.transaction(() => {
        ids.forEach((id) => (del.run(id), untag.run(id)));
        search.deleteSearchText(db, ids);
      })();
      this.generation++;
    });
  }

  /** The stored keys of `ids` (those with a row). */
  keysOf(ids: readonly string[]): Map<string, string> {
    const out = new Map<string, string>();
    this.guarded((db) => {
      const rows = db
        .prepare("SELECT s.id, s.key FROM json_each(?) j JOIN summaries s ON s.id = j.value")
        .all(JSON.stringify(ids)) as Array<{ id: string; key: string }>;
      for (const r of rows) out.set(r.id, r.key);
    });
    return out;
  }

  close(): void {
    if (this.memoryOnly) return; // the in-memory tables are the only copy
    try {
      this.db?.close();
    } catch {
      // closing a damaged database can fail; it is dropped either way
    }
    this.db = null;
    this.statements = null;
  }

  /** Runs `op`; a damaged database is rebuilt and `op` tried once more on the fresh one. */
  guarded(op: (db: Database.Database) => void): void {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        return op(this.handle);
      } catch (err) {
        this.failed(err);
      }
    }
  }

  private openSync(): void {
    if (!this.file) return this.openMemory();
    try {
      this.db = this.checked(new Database(this.file));
    } catch (err) {
      this.failed(err);
    }
  }

  /** After `err` from a read elsewhere: a damaged database is rebuilt, another failure moves it to memory. */
  recover(err: unknown): void {
    this.failed(err);
  }

  /** A damaged database is rebuilt; any other failure (disk full, locked) moves it to memory. */
  private failed(err: unknown): void {
    if (this.memoryOnly) throw err;
    if (isDamage(err)) this.rebuild(describeDamage(err));
    else this.inMemory(err);
  }

  /** `db` once its schema version and tables check out; throws DamagedCache if not. */
  private checked(db: Database.Database): Database.Database {
    try {
      db.pragma("synchronous = OFF");
      // A million rows' indexes take more than SQLite's default 2 MB of page cache to write in
      // file order without re-reading pages; 32 MB keeps the write fast and the process small.
      db.pragma("cache_size = -32768");
      const version = db.pragma("user_version", { simple: true }) as number;
      const tables = (
        db
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
          )
          .all() as Array<{ name: string }>
      ).map((t) => t.name);
      if (version !== 0 && version !== SCHEMA_VERSION)
        throw new DamagedCache(`schema version ${version}, expected ${SCHEMA_VERSION}`);
      const others = tables.filter((t) => !TABLES.includes(t));
      if (others.length > 0) throw new DamagedCache(`unexpected tables ${others.join(", ")}`);
      const columns = (db.pragma("table_info(summaries)") as Array<{ name: string }>).map(
        (c) => c.name,
      );
      if (columns.length > 0 && columns.join(",") !== SUMMARY_COLUMNS.join(","))
        throw new DamagedCache(`table summaries has other columns than this version's`);
      if (!this.memoryOnly) db.pragma("journal_mode = WAL");
      for (const sql of [
        CREATE_SUMMARIES,
        ...CREATE_INDEXES,
        ...CREATE_TAGS,
        ...HEALTH_INDEXES,
        ...CREATE_RECORDS,
      ])
        db.exec(sql);
      search.openSearch(db, this.memoryOnly || !this.file ? null : search.trigramFileOf(this.file));
      if (version !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
      return db;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** Moves the damaged database aside (`<file>.damaged`) and opens a fresh one. */
  private rebuild(reason: string): void {
    this.close();
    const file = this.file as string;
    this.damage = reason;
    this.generation++;
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

  private inMemory(err: unknown): void {
    this.close();
    console.error(
      `summary index ${this.file}: ${(err as Error).message}; keeping summaries in memory only`,
    );
    this.openMemory();
  }

  private openMemory(): void {
    this.memoryOnly = true;
    this.statements = null;
    this.generation++;
    this.db = this.checked(new Database(":memory:"));
  }
}
