// Search's trigrams, written after the summaries that hold the text and off the server's thread:
// a worker of its own (lib/store's pool: one thread, at the lowest priority, running the bundle of
// ./trigram-worker) opens the run's index database to read the text and writes the FTS5 rows into
// the trigram file beside it (./store), a turn at a time, and closes both. It never writes the
// index's database, so the server's writes never wait for it, however starved it is; the server's
// reads never wait either (WAL). Until a row's trigrams are written, queries check it directly
// (./store), so answers are exact meanwhile. A trigram file that is not a database is moved aside
// and written again. Without the built worker (unit tests) or for an index kept in memory, the
// server's thread does the same in short slices with pauses between. docs/search.md.
import "server-only";
import { closeSync, openSync, renameSync, rmSync } from "node:fs";
import Database from "better-sqlite3";
import { isDamage, storePool } from "@/lib/rollout";
import { indexPendingText, trigramFileOf } from "./store";

/** The worker's job: index `file`'s pending text for a turn. */
export interface SearchJob {
  kind: "index-text";
  file: string;
}

export const isSearchJob = (job: { kind: string }): job is SearchJob => job.kind === "index-text";

/**
 * A job's turn, after which another run's job may go first: one transaction of the trigram file
 * (nothing waits on its lock; in the index's file it was 20 ms, to bound the server's wait).
 */
const TURN_MS = 1000;

/** On the worker: writes pending trigrams for up to a turn; whether more wait. */
export function runSearchJob(job: SearchJob): { more: boolean } {
  const file = trigramFileOf(job.file);
  const db = new Database(job.file, { fileMustExist: true, timeout: 10_000 });
  try {
    db.pragma("synchronous = OFF");
    attachTrigrams(db, file);
    try {
      return { more: indexPendingText(db, TURN_MS) };
    } catch (err) {
      // Damage in the trigram file (a page gone bad): moved aside, and the next turn writes it
      // again. Damage in the index is the refresh's to find and report.
      if (!isDamage(err) || db.pragma("trig.quick_check", { simple: true }) === "ok") throw err;
      db.exec("DETACH DATABASE trig");
      moveAside(file, err);
      return { more: true };
    }
  } finally {
    db.close();
  }
}

/** A damaged trigram file (and its WAL) moved aside as `<file>.damaged`, for a fresh one. */
function moveAside(file: string, err: unknown): void {
  console.error(`search index ${file}: ${(err as Error).message}; moved aside and rewritten`);
  try {
    renameSync(file, `${file}.damaged`);
  } catch {
    rmSync(file, { force: true });
  }
  for (const side of ["-wal", "-shm", "-journal"]) rmSync(file + side, { force: true });
}

/** Attaches the trigram file as `trig` in WAL mode; one that is not a database is moved aside. */
function attachTrigrams(db: Database.Database, file: string): void {
  for (let attempt = 0; ; attempt++) {
    let attached = false;
    try {
      // Made here if it is not there: a connection opened with fileMustExist creates no file,
      // and the databases it attaches inherit that.
      closeSync(openSync(file, "a"));
      db.prepare("ATTACH DATABASE ? AS trig").run(file);
      attached = true;
      db.pragma("trig.journal_mode = WAL");
      db.pragma("trig.synchronous = OFF");
      return;
    } catch (err) {
      if (attached) db.exec("DETACH DATABASE trig");
      if (attempt > 0 || !isDamage(err)) throw err;
      moveAside(file, err);
    }
  }
}

/** What the trigram indexing is handed: the rows' database file and guarded access to it. */
interface Indexable {
  /** The database file (null: in memory) and whether the tables are kept in memory after all. */
  readonly file: string | null;
  readonly memoryOnly: boolean;
  readonly isOpen: boolean;
  guarded(op: (db: Database.Database) => void): void;
  close(): void;
}

interface State {
  running: boolean;
  /** Text was written while a job ran: look again when it ends. */
  again: boolean;
  /** Told when the pass ends (textIndexingIdle). */
  idle: Array<() => void>;
}
const states = new WeakMap<Indexable, State>();

/** The pass is over: its worker's connection is closed (runSearchJob closes it before answering). */
function ended(state: State): void {
  state.running = false;
  for (const tell of state.idle.splice(0)) tell();
}

/**
 * Resolves once no trigram pass of `rows` runs, so no connection of it to the index's file is open.
 * A closed index's pass may still hold one (a worker at the lowest priority): what a restart in
 * the same process waits for before it looks at the file.
 */
export function textIndexingIdle(rows: Indexable): Promise<void> {
  const s = states.get(rows);
  if (!s?.running) return Promise.resolve();
  return new Promise((resolve) => s.idle.push(resolve));
}

/** On the server's thread, without the worker: a slice, then a pause four times as long. */
const SLICE_MS = 8;
const PAUSE_MS = 32;
const START_AFTER_MS = 2000;

/** Writes the trigrams of text written without them, soon, until none waits. */
export function indexTextSoon(rows: Indexable): void {
  let s = states.get(rows);
  if (!s) states.set(rows, (s = { running: false, again: false, idle: [] }));
  if (s.running) return void (s.again = true);
  s.running = true;
  s.again = false;
  const state = s;
  const pool = storePool("trigrams");
  const file = rows.memoryOnly ? null : rows.file;
  if (!pool || !file) return onThisThread(rows, state, START_AFTER_MS);
  const turn = () => {
    state.again = false;
    pool.run<{ more: boolean }>({ kind: "index-text", file }, { group: file }).then(
      (r) => (r.more || state.again ? setImmediate(turn) : ended(state)),
      (err: unknown) => {
        // The text still waits, and queries check it directly. Not written on this thread: the
        // failure is the database's (damaged, gone), which the next refresh finds and reports;
        // the next write of text asks the worker again.
        console.error(`search index ${file}: the trigram worker failed (${String(err)})`);
        ended(state);
      },
    );
  };
  turn();
}

/** The server's thread writes pending trigrams: a slice, then a pause four times as long. */
function onThisThread(rows: Indexable, state: State, afterMs: number): void {
  const step = () => {
    let more = false;
    const wasOpen = rows.isOpen;
    rows.guarded((db) => void (more = indexPendingText(db, SLICE_MS)));
    // An idle index holds no handle: a slice that opened it closes it (a refresh's stays open).
    if (!wasOpen) rows.close();
    if (more) setTimeout(step, PAUSE_MS);
    else ended(state);
  };
  // Not at once: the page that asked for the refresh, and the click after it, are served first.
  setTimeout(step, afterMs);
}
