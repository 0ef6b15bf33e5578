// Search text in the summary index's database: one row per rollout (its text deflated, and its
// segments: kind, call, token range and where each starts in the text) and a contentless FTS5
// trigram index over the same text that stores rowids only (detail=none), so the two together
// stay near the text's own size. A query's trigrams narrow the candidates; each candidate's text is
// then checked (./match), so what matches is exact. Written with the summaries (lib/index/rows);
// not responsible for what text a rollout has (lib/rollout/search-text).
import "server-only";
import { deflateRawSync } from "node:zlib";
import type Database from "better-sqlite3";
import type { IndexedText } from "@/lib/rollout";
import { registerTextMatch } from "./match";

export const SEARCH_TABLES = [
  "search_text",
  "search_fts",
  "search_fts_data",
  "search_fts_idx",
  "search_fts_docsize",
  "search_fts_config",
];

export const CREATE_SEARCH = [
  "CREATE TABLE IF NOT EXISTS search_text (rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, body BLOB NOT NULL, segs TEXT NOT NULL, chars INTEGER NOT NULL)",
  "CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(body, tokenize = 'trigram remove_diacritics 0', content = '', contentless_delete = 1, detail = none)",
];

/** The tables, and the check function every query of them uses, on a freshly opened database. */
export function openSearch(db: Database.Database): void {
  for (const sql of CREATE_SEARCH) db.exec(sql);
  registerTextMatch(db);
}

interface Statements {
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
      find: db.prepare("SELECT rid FROM search_text WHERE id = ?").pluck(),
      drop: db.prepare("DELETE FROM search_text WHERE rid = ?"),
      unindex: db.prepare("DELETE FROM search_fts WHERE rowid = ?"),
      insert: db.prepare(
        "INSERT INTO search_text (id, body, segs, chars) VALUES (?, ?, ?, ?) RETURNING rid",
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
  const old = st.find.get(id) as number | undefined;
  if (old !== undefined) {
    st.unindex.run(old);
    st.drop.run(old);
  }
  if (!text) return;
  const body = text.packed ?? deflateRawSync(text.body, { level: 1 });
  const row = st.insert.get(id, body, JSON.stringify(text.segments), text.body.length) as {
    rid: number;
  };
  st.index.run(row.rid, text.body);
}

/** Deletes the search text of rollouts that are gone. */
export function deleteSearchText(db: Database.Database, ids: readonly string[]): void {
  for (const id of ids) writeSearchText(db, id, null);
}

/** Drops the text of rollouts without a summary row. */
export function dropOrphanText(db: Database.Database): void {
  const orphans = "SELECT rid FROM search_text WHERE id NOT IN (SELECT id FROM summaries)";
  db.prepare(`DELETE FROM search_fts WHERE rowid IN (${orphans})`).run();
  db.prepare(`DELETE FROM search_text WHERE rid IN (${orphans})`).run();
}

/** Rollouts with search text, and the characters of text they hold. */
export function searchTextTotals(db: Database.Database): { rollouts: number; chars: number } {
  const row = db
    .prepare("SELECT COUNT(*) AS rollouts, ifnull(SUM(chars), 0) AS chars FROM search_text")
    .get() as { rollouts: number; chars: number };
  return row;
}
