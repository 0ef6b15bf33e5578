// Opens a user's SQLite database without changing a byte beside it: the file and its `-wal` or
// `-journal` are copied through the deadline-guarded reader (./file) into a private temporary
// directory, where SQLite opens the copy and replays the copied WAL. Not responsible for confining
// `file` (the caller does), nor for what its tables mean.
import "server-only";
import Database from "better-sqlite3";
import { mkdtemp, open, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { lstatWithin, openRegular, readChunks, statWithin } from "./file";

// Why a copy, measured with better-sqlite3 12 (SQLite 3.53): `readonly: true` on a WAL database
// sees the WAL's rows but writes its read marks into the `-shm`, and creates one when it is
// missing; better-sqlite3 is built with SQLITE_USE_URI=0, so `file:…?mode=ro` and `immutable=1`
// do not open (and immutable would ignore the WAL); `new Database(buffer)` refuses a WAL-mode
// header (SQLITE_CANTOPEN) and, with the header patched to rollback mode, ignores the WAL's rows.
// The copy sees them, takes no lock on the user's files and holds one 1 MiB chunk at a time: a
// 96 MB database with an 8 MB WAL copies and opens in about 0.1 s from a warm page cache.

/** The most a database may hold (its file, WAL and journal together) to be copied and read: 2 GiB. */
export const SQLITE_SNAPSHOT_MAX_BYTES = 2 * 1024 ** 3;

/** What SQLite keeps beside a database: committed pages (WAL) or original pages (journal). */
const SIDECARS = ["-wal", "-journal"] as const;
const ATTEMPTS = 3;
const COPY = "snapshot.db";

/** A failure SQLite or the copy reports, named for the file the user gave. */
export class SqliteSnapshotError extends Error {
  constructor(
    readonly file: string,
    reason: string,
    readonly code?: string,
  ) {
    super(`${path.basename(file)}: ${reason}`);
    this.name = "SqliteSnapshotError";
  }
}

const isErrno = (err: unknown, code: string) =>
  (err as NodeJS.ErrnoException | null)?.code === code;

/** The sidecars beside `file`; one that is not a regular file (a symlink too) is refused. */
async function sidecarsOf(file: string): Promise<string[]> {
  const found: string[] = [];
  for (const suffix of SIDECARS) {
    const st = await lstatWithin(file + suffix).catch((err: unknown) => {
      if (isErrno(err, "ENOENT")) return null;
      throw err;
    });
    if (!st) continue;
    if (!st.isFile())
      throw new SqliteSnapshotError(file, `its ${suffix} is not a regular file; not read`);
    found.push(suffix);
  }
  return found;
}

/**
 * A WAL's generation: its checkpoint sequence and salts (header bytes 12–23), which change each
 * time a writer restarts the WAL from its beginning. Null when there is no whole header.
 */
async function walGeneration(wal: string): Promise<string | null> {
  const f = await openRegular(wal).catch((err: unknown) => {
    if (isErrno(err, "ENOENT")) return null;
    throw err;
  });
  if (!f) return null;
  try {
    const header = Buffer.alloc(32);
    return (await f.read(header, 0)) === 32 ? header.toString("hex", 12, 24) : null;
  } finally {
    await f.close();
  }
}

interface Budget {
  left: number;
  readonly max: number;
}

function tooLarge(file: string, max: number): SqliteSnapshotError {
  const cap = max >= 2 ** 20 ? `${Math.round(max / 2 ** 20)} MiB` : `${max} bytes`;
  return new SqliteSnapshotError(file, `larger than ${cap} with its WAL; not read`);
}

/** Copies `from` to a new file `to` (mode 0600) and gives its size, counted against `budget`. */
async function copyFile(from: string, to: string, budget: Budget, file: string): Promise<number> {
  const out = await open(to, "wx", 0o600);
  let bytes = 0;
  try {
    for await (const chunk of readChunks(from)) {
      bytes += chunk.length;
      budget.left -= chunk.length;
      if (budget.left < 0) throw tooLarge(file, budget.max);
      await out.write(chunk);
    }
    return bytes;
  } finally {
    await out.close();
  }
}

interface Copied {
  /** The main file's size as copied. */
  bytes: number;
  sidecars: string[];
}

const stampOf = (s: { ino: number; size: number; mtimeMs: number; ctimeMs: number }) =>
  `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;

/**
 * Copies the database, then its sidecars, into `dir`. The WAL is copied last: frames appended
 * meanwhile are whole or dropped by their checksums. A checkpoint that writes the main file while
 * it is copied leaves some of its pages old and some new; the copy still holds as long as the WAL
 * kept its generation, since every page a checkpoint writes comes from that WAL's frames. Else
 * (or in rollback mode, where a writer changes the file in place) it is copied again.
 */
async function copyWhole(file: string, dir: string, maxBytes: number): Promise<Copied> {
  for (let attempt = 1; ; attempt++) {
    const before = await statWithin(file);
    if (before.isFile() && before.size > maxBytes) throw tooLarge(file, maxBytes);
    const budget: Budget = { left: maxBytes, max: maxBytes };
    try {
      const generation = (await sidecarsOf(file)).includes("-wal")
        ? await walGeneration(file + "-wal")
        : null;
      const bytes = await copyFile(file, path.join(dir, COPY), budget, file);
      const sidecars = await sidecarsOf(file);
      for (const suffix of sidecars)
        await copyFile(file + suffix, path.join(dir, COPY + suffix), budget, file);
      const still = stampOf(before) === stampOf(await statWithin(file));
      const sameWal =
        generation !== null && generation === (await walGeneration(path.join(dir, COPY + "-wal")));
      if (still || sameWal) return { bytes, sidecars };
    } catch (err) {
      // A sidecar removed between its lstat and its read: the writer checkpointed; copy again.
      if (!isErrno(err, "ENOENT") || attempt >= ATTEMPTS) throw err;
    }
    await Promise.all(["", ...SIDECARS].map((s) => rm(path.join(dir, COPY + s), { force: true })));
    if (attempt >= ATTEMPTS)
      throw new SqliteSnapshotError(
        file,
        `changed while it was copied, ${ATTEMPTS} times; not read`,
      );
  }
}

function sqliteError(file: string, err: unknown): unknown {
  if (err instanceof SqliteSnapshotError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (
    err instanceof Database.SqliteError ||
    (typeof code === "string" && code.startsWith("SQLITE_"))
  )
    return new SqliteSnapshotError(
      file,
      `${(err as Error).message} (${String(code)})`,
      String(code),
    );
  return err;
}

/** Opens the copy; SQLite replays its WAL (or rolls back its hot journal) and reads the schema. */
function openCopy(file: string, copy: string, journal: boolean): Database.Database {
  let db: Database.Database | null = null;
  try {
    // Rolling back a hot journal writes the copy: it is opened writable then, and query-only.
    db = new Database(copy, { readonly: !journal, fileMustExist: true });
    db.prepare("SELECT count(*) FROM sqlite_schema").pluck().get();
    if (journal) db.pragma("query_only = ON");
    return db;
  } catch (err) {
    db?.close();
    throw sqliteError(file, err);
  }
}

/**
 * Runs `read` on a private copy of the SQLite database at `file` (with the rows its WAL holds),
 * then closes it and removes the copy, also on error. Refuses a file over `maxBytes` (with its WAL),
 * an empty one (with no WAL) and anything that is not a regular file; SQLite's own complaints
 * (not a database, malformed) come as SqliteSnapshotError naming `file`.
 */
export async function withSqliteSnapshot<T>(
  file: string,
  maxBytes: number,
  read: (db: Database.Database) => T | Promise<T>,
): Promise<T> {
  // mkdtemp makes the directory 0700: the copy is this process's alone.
  const dir = await mkdtemp(path.join(os.tmpdir(), "rollout-lens-sqlite-"));
  let db: Database.Database | null = null;
  try {
    const copied = await copyWhole(file, dir, maxBytes);
    // SQLite takes an empty file for an empty database; for the user it is no database yet.
    if (copied.bytes === 0 && copied.sidecars.length === 0)
      throw new SqliteSnapshotError(file, "an empty file (0 bytes), not an SQLite database yet");
    db = openCopy(file, path.join(dir, COPY), copied.sidecars.includes("-journal"));
    try {
      return await read(db);
    } catch (err) {
      throw sqliteError(file, err);
    }
  } finally {
    db?.close();
    await rm(dir, { recursive: true, force: true });
  }
}
