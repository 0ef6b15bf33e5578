// The bulk of a large run, kept out of JavaScript: "plain" rollouts, those with a record and
// nothing else (no store files, no lock file, no attempt group), are found stale, gone or up to
// date by SQL over the records and summaries tables, a page at a time, so a run of a million
// records is indexed without a million ids in memory. Their row key is the key ./keys
// gives such a rollout (`plainKeyPrefix` + record hash + `PLAIN_KEY_SUFFIX`). The other rollouts
// (the "special" ones: a few, or a store's worth) are keyed in JavaScript by the caller.
import "server-only";
import type Database from "better-sqlite3";
import { attemptOf, nextTurn } from "@/lib/store";

/** What follows the record hash in a plain rollout's key: not deleted, no attempt group. */
export const PLAIN_KEY_SUFFIX = "||";

type Db = Database.Database;

/** Records whose ids are in an attempt group (`R-aN`, and `R` where an attempt of it exists). */
export function attemptRecordIds(db: Db, storeIds: ReadonlySet<string>): string[] {
  const attempts = (
    db.prepare("SELECT id FROM records WHERE id GLOB '*-a[0-9]*'").pluck().all() as string[]
  ).filter((id) => attemptOf(id) !== null);
  const bases = new Set<string>();
  for (const id of [...attempts, ...storeIds]) {
    const base = attemptOf(id)?.base;
    if (base) bases.add(base);
  }
  const present = db
    .prepare("SELECT r.id FROM json_each(?) j JOIN records r ON r.id = j.value")
    .pluck()
    .all(JSON.stringify([...bases])) as string[];
  return [...attempts, ...present];
}

/** Loads the special ids (keyed in JavaScript) into this connection's temp table. */
export function markSpecial(db: Db, ids: Iterable<string>): void {
  db.exec("CREATE TEMP TABLE IF NOT EXISTS special (id TEXT PRIMARY KEY); DELETE FROM special");
  const put = db.prepare("INSERT OR IGNORE INTO special (id) VALUES (?)");
  db.transaction(() => {
    for (const id of ids) put.run(id);
  })();
}

/** Rows of rollouts with neither a record nor a special id: gone from the run. */
export function goneIds(db: Db): string[] {
  return db
    .prepare(
      "SELECT id FROM summaries WHERE id NOT IN (SELECT id FROM records) AND id NOT IN (SELECT id FROM temp.special)",
    )
    .pluck()
    .all() as string[];
}

const STALE_WHERE =
  "r.id NOT IN (SELECT id FROM temp.special) AND (s.key IS NULL OR s.key != @prefix || r.hash || @suffix)";

/**
 * How many plain records have no row, or a row under another key (`replacing`: those with a row);
 * counted a range at a time.
 */
export async function countPlainStale(
  db: () => Db,
  prefix: string,
): Promise<{ stale: number; replacing: number }> {
  const last = (db().prepare("SELECT max(rowid) FROM records").pluck().get() as number | null) ?? 0;
  const n = { stale: 0, replacing: 0 };
  for (let from = 0; from <= last; from += 50_000) {
    const c = db()
      .prepare(
        `SELECT COUNT(*) AS stale, COUNT(s.id) AS replacing FROM records r LEFT JOIN summaries s ON s.id = r.id WHERE r.rowid > @from AND r.rowid <= @to AND ${STALE_WHERE}`,
      )
      .get({ from, to: from + 50_000, prefix, suffix: PLAIN_KEY_SUFFIX }) as typeof n;
    n.stale += c.stale;
    n.replacing += c.replacing;
    await nextTurn();
  }
  return n;
}

export interface PlainRecord {
  rid: number;
  id: string;
  hash: string;
  record: string;
  /** The rollout has a row already (under another key). */
  had: number;
}

/** The next `limit` stale plain records after rowid `after`, in file order. */
export function plainStalePage(
  db: Db,
  prefix: string,
  after: number,
  limit: number,
): PlainRecord[] {
  return db
    .prepare(
      `SELECT r.rowid AS rid, r.id, r.hash, r.record, s.id IS NOT NULL AS had FROM records r LEFT JOIN summaries s ON s.id = r.id WHERE r.rowid > @after AND ${STALE_WHERE} ORDER BY r.rowid LIMIT @limit`,
    )
    .all({ after, limit, prefix, suffix: PLAIN_KEY_SUFFIX }) as PlainRecord[];
}
