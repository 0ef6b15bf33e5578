// Search text in the summary index's database: one row per rollout (its text, deflated when short, and its
// segments: kind, call, token range and where each starts in the text) and a contentless FTS5
// trigram index over the same text that stores rowids only (detail=none), so the two together
// stay near the text's own size. Rows waiting for their trigrams are listed in a table of their
// own: marking a row done in place would rewrite its text. A query's trigrams narrow the candidates; each candidate's text is
// then checked (./match), so what matches is exact. The text is written with the summaries
// (lib/index/rows); its trigrams are written after them (./indexer: a row not yet indexed is
// checked as a candidate), so summaries never wait on them. Not responsible for what text a
// rollout has (lib/rollout/search-text).
import "server-only";
import type Database from "better-sqlite3";
import type { IndexedText } from "@/lib/rollout";
import { registerTextMatch, utf8Of } from "./match";

export const SEARCH_TABLES = [
  "search_text",
  "search_pending",
  "search_fts",
  "search_fts_data",
  "search_fts_idx",
  "search_fts_docsize",
  "search_fts_config",
];

export const CREATE_SEARCH = [
  // trigrams: 1 when its trigrams are indexed or wait in search_pending, 0 when they never are.
  "CREATE TABLE IF NOT EXISTS search_text (rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, body BLOB NOT NULL, deflated INTEGER NOT NULL, segs TEXT NOT NULL, bytes INTEGER NOT NULL, trigrams INTEGER NOT NULL)",
  "CREATE INDEX IF NOT EXISTS search_text_dense ON search_text (rid) WHERE trigrams = 0",
  "CREATE TABLE IF NOT EXISTS search_pending (rid INTEGER PRIMARY KEY)",
  "CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(body, tokenize = 'trigram remove_diacritics 0', content = '', contentless_delete = 1, detail = none)",
];

/** The tables, and the check function every query of them uses, on a freshly opened database. */
export function openSearch(db: Database.Database): void {
  for (const sql of CREATE_SEARCH) db.exec(sql);
  registerTextMatch(db);
}

interface Statements {
  pending: Database.Statement;
  anyPending: Database.Statement;
  indexed: Database.Statement;
  wait: Database.Statement;
  find: Database.Statement;
  drop: Database.Statement;
  unindex: Database.Statement;
  insert: Database.Statement;
  index: Database.Statement;
}
const statements = new WeakMap<Database.Database, Statements>();

function statementsOf(db: Database.Database): Statements {
  let st = statements.get(db);
  if (!st) {
    st = {
      pending: db.prepare(
        "SELECT p.rid, t.body, t.deflated FROM search_pending p JOIN search_text t ON t.rid = p.rid LIMIT 16",
      ),
      anyPending: db.prepare("SELECT 1 FROM search_pending LIMIT 1").pluck(),
      indexed: db.prepare("DELETE FROM search_pending WHERE rid = ?"),
      wait: db.prepare("INSERT INTO search_pending (rid) VALUES (?)"),
      find: db.prepare("SELECT rid, trigrams FROM search_text WHERE id = ?"),
      drop: db.prepare("DELETE FROM search_text WHERE rid = ?"),
      unindex: db.prepare("DELETE FROM search_fts WHERE rowid = ?"),
      insert: db.prepare(
        "INSERT INTO search_text (id, body, deflated, segs, bytes, trigrams) VALUES (?, ?, ?, ?, ?, ?)",
      ),
      index: db.prepare("INSERT INTO search_fts (rowid, body) VALUES (?, ?)"),
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
  const old = st.find.get(id) as { rid: number; trigrams: number } | undefined;
  if (old !== undefined) {
    // Still waiting: its trigrams were never written.
    const waited = st.indexed.run(old.rid).changes > 0;
    if (old.trigrams === 1 && !waited) st.unindex.run(old.rid);
    st.drop.run(old.rid);
  }
  if (!text) return;
  // Text whose trigrams barely repeat is never indexed (checked by every query); other text waits
  // for its trigrams (./indexer).
  const rid = st.insert.run(
    id,
    text.body,
    text.deflated ? 1 : 0,
    JSON.stringify(text.segments),
    text.bytes,
    text.trigrams ? 1 : 0,
  ).lastInsertRowid;
  if (text.trigrams) st.wait.run(rid);
}

/** Indexes the trigrams of text written without them for about `budgetMs`; true when more wait. */
export function indexPendingText(db: Database.Database, budgetMs: number): boolean {
  const st = statementsOf(db);
  const t0 = performance.now();
  let more = true;
  // IMMEDIATE: the write lock is taken (or waited for) at once. A deferred transaction that read
  // first could not upgrade after another connection's commit (SQLITE_BUSY_SNAPSHOT, no waiting).
  db.transaction(() => {
    while (more && performance.now() - t0 < budgetMs) {
      const rows = st.pending.all() as Array<{ rid: number; body: Buffer; deflated: number }>;
      more = rows.length > 0;
      for (const r of rows) {
        // The UTF-8 bytes as they are: FTS5 reads a blob's bytes as the text (no string made).
        st.index.run(r.rid, utf8Of(r.body, r.deflated));
        st.indexed.run(r.rid);
        if (performance.now() - t0 >= budgetMs) break;
      }
    }
  }).immediate();
  return more && st.anyPending.get() !== undefined;
}

/** Rollouts whose text waits for its trigrams (0 once search is fully indexed). */
export const pendingTextCount = (db: Database.Database): number =>
  db.prepare("SELECT COUNT(*) FROM search_pending").pluck().get() as number;

/** Deletes the search text of rollouts that are gone. */
export function deleteSearchText(db: Database.Database, ids: readonly string[]): void {
  for (const id of ids) writeSearchText(db, id, null);
}

/** Drops the text of rollouts without a summary row. */
export function dropOrphanText(db: Database.Database): void {
  const orphans = "SELECT rid FROM search_text WHERE id NOT IN (SELECT id FROM summaries)";
  const indexed = `${orphans} AND trigrams = 1 AND rid NOT IN (SELECT rid FROM search_pending)`;
  db.prepare(`DELETE FROM search_fts WHERE rowid IN (${indexed})`).run();
  db.prepare(`DELETE FROM search_pending WHERE rid IN (${orphans})`).run();
  db.prepare(`DELETE FROM search_text WHERE rid IN (${orphans})`).run();
}

/** Rollouts with search text, and the UTF-8 bytes of text they hold. */
export function searchTextTotals(db: Database.Database): { rollouts: number; bytes: number } {
  const row = db
    .prepare("SELECT COUNT(*) AS rollouts, ifnull(SUM(bytes), 0) AS bytes FROM search_text")
    .get() as { rollouts: number; bytes: number };
  return row;
}
