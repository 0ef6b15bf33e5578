// The summary cache's integrity check, `PRAGMA quick_check`, which reads every page of the
// database (seconds for a large cache on a cold disk): run on the index's store worker
// (lib/index/pool) before the main thread opens the database (lib/index/rows), so it never blocks the
// server. Read-only. Also how a SQLite failure is told apart as damage and described. Not
// responsible for rebuilding the cache (lib/index/rows).
import "server-only";
import Database from "better-sqlite3";

/** Thrown (and reported) for a database that is SQLite but not this cache's table. */
export class DamagedCache extends Error {}

/** SQLite's codes for a file that is not (or no longer) a database of this table. */
const DAMAGE_CODES = /^SQLITE_(NOTADB|CORRUPT|FORMAT|ERROR|MISMATCH|CONSTRAINT)/;

export function isDamage(err: unknown): boolean {
  return err instanceof DamagedCache || DAMAGE_CODES.test((err as { code?: string }).code ?? "");
}

/** A few words on what is wrong with the database, for the run page's notice. */
export function describeDamage(err: unknown): string {
  if (err instanceof DamagedCache) return err.message;
  const e = err as Error & { code?: string };
  if (e.code === "SQLITE_NOTADB") return "not a SQLite database";
  return e.code ? `${e.code}: ${e.message}` : e.message;
}

/**
 * Why the database at `file` is damaged, or null when its pages check out or there is no file.
 * Other failures (permissions, a full disk) are thrown: they are not the cache's damage.
 */
export function cacheDamage(file: string): string | null {
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch (err) {
    if ((err as { code?: string }).code === "SQLITE_CANTOPEN") return null; // no cache yet
    if (isDamage(err)) return describeDamage(err);
    throw err;
  }
  try {
    const problems = (db.pragma("quick_check") as Array<{ quick_check: string }>)
      .map((r) => r.quick_check)
      .filter((r) => r !== "ok");
    return problems.length > 0
      ? `integrity check failed: ${problems.slice(0, 3).join("; ")}`
      : null;
  } catch (err) {
    if (isDamage(err)) return describeDamage(err);
    throw err;
  } finally {
    db.close();
  }
}
