// Search text in the summary index: one row per rollout in the index's database (`search_text`:
// its text, deflated when short, and its segments: kind, call, token range and where each starts),
// and a contentless FTS5 trigram index over the same text (its repeats cut: ./trigram-text) that
// stores rowids only (detail=none) in a database file of its own beside it (attached as `trig`),
// so the two together stay near the text's own size and the trigram writer never holds the
// summaries' write lock: a writer at the lowest priority, starved by a busy machine while it held
// that lock, made the summaries' writes wait (the event loop blocked) and, past the busy timeout,
// fail.
// Rows get increasing ids that are never reused (AUTOINCREMENT), so the trigram file says how far
// it has got with one number (`done`): rows after it wait for their trigrams. A replaced row's old
// trigrams stay until the writer drops them; they name no row, so they match nothing. The trigram
// file is bound to its index by an epoch kept in both: a rebuilt index (a new epoch) has its
// trigrams written again. A query's trigrams narrow the candidates; each candidate's text is then
// checked (./match), so what matches is exact, whether the trigrams are there, behind, or broken.
// Not responsible for what text a rollout has (lib/rollout/search-text) nor when the trigrams are
// written (./indexer).
import "server-only";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import type { IndexedText } from "@/lib/rollout";
import { registerTextMatch, utf8Of } from "./match";
import { trigramText } from "./trigram-text";

/** The search tables of the index's own database. */
export const SEARCH_TABLES = ["search_text"];
/** The trigram file's tables (FTS5's shadow tables included). */
export const TRIGRAM_TABLES = [
  "search_state",
  "search_fts",
  "search_fts_data",
  "search_fts_idx",
  "search_fts_docsize",
  "search_fts_config",
];

export const CREATE_SEARCH = [
  // trigrams: 1 when its trigrams are (or will be) indexed, 0 when they never are.
  "CREATE TABLE IF NOT EXISTS search_text (rid INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, body BLOB NOT NULL, deflated INTEGER NOT NULL, segs TEXT NOT NULL, bytes INTEGER NOT NULL, trigrams INTEGER NOT NULL)",
  "CREATE INDEX IF NOT EXISTS search_text_dense ON search_text (rid) WHERE trigrams = 0",
];

/** The trigram table's FTS5 arguments: trigrams of the text, no copy of it, rowids only. */
export const TRIGRAM_FTS = `fts5(body, tokenize = 'trigram remove_diacritics 0', content = '', contentless_delete = 1, detail = none)`;

const CREATE_TRIGRAMS = [
  "CREATE TABLE IF NOT EXISTS trig.search_state (k TEXT PRIMARY KEY, v TEXT NOT NULL)",
  `CREATE VIRTUAL TABLE IF NOT EXISTS trig.search_fts USING ${TRIGRAM_FTS}`,
];

/** The trigram file of the index database `file`. */
export const trigramFileOf = (file: string): string => `${file}.trigrams`;

/**
 * The tables, the check function every query of them uses and the trigram file (`trigrams`; null:
 * in memory, beside an index kept in memory) on a freshly opened database. The index's epoch is
 * made with its tables.
 */
export function openSearch(db: Database.Database, trigrams: string | null): void {
  for (const sql of CREATE_SEARCH) db.exec(sql);
  if (db.prepare("SELECT 1 FROM meta WHERE k = 'search_epoch'").get() === undefined)
    db.prepare("INSERT INTO meta (k, v) VALUES ('search_epoch', ?)").run(randomUUID());
  registerTextMatch(db);
  try {
    db.prepare("ATTACH DATABASE ? AS trig").run(trigrams ?? ":memory:");
  } catch (err) {
    // Not a database: the trigram writer moves it aside and writes it again (./indexer). Until
    // this connection is opened again, its queries check every row: the index itself is sound.
    console.error(`search index ${trigrams}: ${(err as Error).message}; its trigrams are unused`);
    db.prepare("ATTACH DATABASE ':memory:' AS trig").run();
  }
}

/** How far the trigrams have got (rows up to this id have theirs), or null: none to trust. */
export function trigramsDone(db: Database.Database): number | null {
  try {
    const rows = db
      .prepare(
        "SELECT s.k, s.v FROM trig.search_state s JOIN meta m ON m.k = 'search_epoch' WHERE s.k = 'done' OR (s.k = 'epoch' AND s.v = m.v)",
      )
      .all() as Array<{ k: string; v: string }>;
    const done = rows.find((r) => r.k === "done");
    return rows.length === 2 && done ? Number(done.v) : null;
  } catch {
    // Not written yet (no tables), or damaged: the trigram writer rebuilds it; queries check all.
    return null;
  }
}

/**
 * Gives the index a new epoch, so its trigrams are no longer trusted and are written again from
 * the start (by the writer, ./indexer): for a trigram file a query found damaged.
 */
export function retireTrigrams(db: Database.Database): void {
  db.prepare("UPDATE meta SET v = ? WHERE k = 'search_epoch'").run(randomUUID());
}

interface Statements {
  find: Database.Statement;
  drop: Database.Statement;
  dropped: Database.Statement;
  insert: Database.Statement;
}
const statements = new WeakMap<Database.Database, Statements>();

function statementsOf(db: Database.Database): Statements {
  let st = statements.get(db);
  if (!st) {
    st = {
      find: db.prepare("SELECT rid FROM search_text WHERE id = ?").pluck(),
      drop: db.prepare("DELETE FROM search_text WHERE rid = ?"),
      dropped: db.prepare(
        "INSERT INTO meta (k, v) VALUES ('search_dropped', '1') ON CONFLICT (k) DO UPDATE SET v = v + 1",
      ),
      insert: db.prepare(
        "INSERT INTO search_text (id, body, deflated, segs, bytes, trigrams) VALUES (?, ?, ?, ?, ?, ?)",
      ),
    };
    statements.set(db, st);
  }
  return st;
}

/** Replaces the rollout's search text (none: it has no text); inside the caller's transaction. */
export function writeSearchText(
  db: Database.Database,
  id: string,
  text: IndexedText | null | undefined,
): void {
  const st = statementsOf(db);
  const old = st.find.get(id) as number | undefined;
  if (old !== undefined) {
    st.drop.run(old);
    st.dropped.run(); // its trigrams, if written, are dropped after (dropReplaced)
  }
  if (!text) return;
  // Text whose trigrams barely repeat is never indexed (checked by every query); other text waits
  // for its trigrams (./indexer).
  st.insert.run(id, text.body, text.deflated ? 1 : 0, text.segs, text.bytes, text.trigrams ? 1 : 0);
}

/** The trigram tables, emptied when they were written for another epoch of the index. */
function trigramTables(db: Database.Database): number {
  for (const sql of CREATE_TRIGRAMS) db.exec(sql);
  const epoch = db.prepare("SELECT v FROM meta WHERE k = 'search_epoch'").pluck().get() as string;
  const state = new Map(
    (db.prepare("SELECT k, v FROM trig.search_state").all() as Array<{ k: string; v: string }>).map(
      (r) => [r.k, r.v],
    ),
  );
  if (state.get("epoch") === epoch) return Number(state.get("done") ?? 0);
  db.exec("INSERT INTO trig.search_fts (search_fts) VALUES ('delete-all')");
  const set = db.prepare("INSERT OR REPLACE INTO trig.search_state (k, v) VALUES (?, ?)");
  set.run("epoch", epoch);
  set.run("done", "0");
  return 0;
}

/**
 * Writes the trigrams of rows after `done` for about `budgetMs`, in one transaction that writes
 * the trigram file only (the index's database is read); true when more wait.
 */
export function indexPendingText(db: Database.Database, budgetMs: number): boolean {
  const t0 = performance.now();
  let more = true;
  db.transaction(() => {
    let done = trigramTables(db);
    const next = db.prepare(
      "SELECT rid, body, deflated FROM search_text WHERE rid > ? AND trigrams = 1 ORDER BY rid LIMIT 16",
    );
    const index = db.prepare("INSERT INTO trig.search_fts (rowid, body) VALUES (?, ?)");
    while (more && performance.now() - t0 < budgetMs) {
      const rows = next.all(done) as Array<{ rid: number; body: Buffer; deflated: number }>;
      more = rows.length > 0;
      for (const r of rows) {
        // UTF-8 bytes: FTS5 reads a blob's bytes as the text (no string made). Its repeats are cut
        // first (./trigram-text): the trigrams it holds are the same.
        const cut = trigramText(utf8Of(r.body, r.deflated));
        index.run(r.rid, Buffer.from(cut.buffer, cut.byteOffset, cut.byteLength));
        done = r.rid;
      }
    }
    db.prepare("UPDATE trig.search_state SET v = ? WHERE k = 'done'").run(String(done));
    if (!more) dropReplaced(db);
  })();
  return more;
}

/**
 * Drops the trigrams of rows replaced or deleted since they were written (they name no row): when
 * the index counts more rows dropped (`search_dropped`) than when this last ran.
 */
function dropReplaced(db: Database.Database): void {
  const count = (sql: string) => String(db.prepare(sql).pluck().get() ?? "0");
  const dropped = count("SELECT v FROM meta WHERE k = 'search_dropped'");
  if (count("SELECT v FROM trig.search_state WHERE k = 'dropped'") === dropped) return;
  const gone = db
    .prepare("SELECT id FROM trig.search_fts_docsize WHERE id NOT IN (SELECT rid FROM search_text)")
    .pluck()
    .all() as number[];
  const drop = db.prepare("DELETE FROM trig.search_fts WHERE rowid = ?");
  for (const rid of gone) drop.run(rid);
  db.prepare("INSERT OR REPLACE INTO trig.search_state (k, v) VALUES ('dropped', ?)").run(dropped);
}

/** Rollouts whose text waits for its trigrams (0 once search is fully indexed). */
export const pendingTextCount = (db: Database.Database): number =>
  db
    .prepare("SELECT COUNT(*) FROM search_text WHERE rid > ? AND trigrams = 1")
    .pluck()
    .get(trigramsDone(db) ?? 0) as number;

/** pendingTextCount of the index database `file`, read beside the server (read-only). */
export function pendingTextIn(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    if (existsSync(trigramFileOf(file)))
      db.prepare("ATTACH DATABASE ? AS trig").run(trigramFileOf(file));
    return pendingTextCount(db);
  } finally {
    db.close();
  }
}

/** Deletes the search text of rollouts that are gone. */
export function deleteSearchText(db: Database.Database, ids: readonly string[]): void {
  for (const id of ids) writeSearchText(db, id, null);
}

/** Drops the text of rollouts without a summary row. */
export function dropOrphanText(db: Database.Database): void {
  db.prepare("DELETE FROM search_text WHERE id NOT IN (SELECT id FROM summaries)").run();
}

/** Rollouts with search text, and the UTF-8 bytes of text they hold. */
export function searchTextTotals(db: Database.Database): { rollouts: number; bytes: number } {
  const row = db
    .prepare("SELECT COUNT(*) AS rollouts, ifnull(SUM(bytes), 0) AS bytes FROM search_text")
    .get() as { rollouts: number; bytes: number };
  return row;
}
