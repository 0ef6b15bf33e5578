// Search's trigrams, written after the summaries that hold the text and off the server's thread:
// a worker of its own (lib/store's pool: one thread, at the lowest priority) opens the run's index
// database, writes the FTS5 rows of text written without them, one short transaction at a time,
// and closes it. The server's summary writes wait at most one such transaction for the write
// lock; its reads never wait (WAL). Until a row's trigrams are written, queries check it directly
// (./store), so answers are exact meanwhile. Without the built worker (unit tests) or for an index
// kept in memory, the server's thread does the same in short slices with pauses between.
// docs/search.md.
import "server-only";
import Database from "better-sqlite3";
import { storePool } from "@/lib/rollout";
import { indexPendingText } from "./store";

/** The worker's job: index `file`'s pending text for a turn. */
export interface SearchJob {
  kind: "index-text";
  file: string;
}

export const isSearchJob = (job: { kind: string }): job is SearchJob => job.kind === "index-text";

/** The worker's longest write transaction: the server's own writes may wait this long. */
const WORKER_TXN_MS = 20;
/** A job's turn, after which another run's job may go first. */
const TURN_MS = 1000;

/** On the worker: writes pending trigrams for up to a turn; whether more wait. */
export function runSearchJob(job: SearchJob): { more: boolean } {
  const db = new Database(job.file, { fileMustExist: true, timeout: 10_000 });
  try {
    db.pragma("synchronous = OFF");
    const t0 = performance.now();
    let more = true;
    while (more && performance.now() - t0 < TURN_MS) more = indexPendingText(db, WORKER_TXN_MS);
    return { more };
  } finally {
    db.close();
  }
}

/** What the trigram indexing is handed: the rows' database file and guarded access to it. */
interface Indexable {
  /** The database file (null: in memory) and whether the tables are kept in memory after all. */
  readonly file: string | null;
  readonly memoryOnly: boolean;
  guarded(op: (db: Database.Database) => void): void;
}

interface State {
  running: boolean;
  /** Text was written while a job ran: look again when it ends. */
  again: boolean;
}
const states = new WeakMap<Indexable, State>();

/** On the server's thread, without the worker: a slice, then a pause four times as long. */
const SLICE_MS = 8;
const PAUSE_MS = 32;
const START_AFTER_MS = 2000;

/** Writes the trigrams of text written without them, soon, until none waits. */
export function indexTextSoon(rows: Indexable): void {
  let s = states.get(rows);
  if (!s) states.set(rows, (s = { running: false, again: false }));
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
      (r) => (r.more || state.again ? setImmediate(turn) : (state.running = false)),
      (err: unknown) => {
        // The text still waits: this thread writes it, and says why the worker could not.
        console.error(`search index ${file}: the trigram worker failed (${String(err)})`);
        onThisThread(rows, state, 0);
      },
    );
  };
  turn();
}

/** The server's thread writes pending trigrams: a slice, then a pause four times as long. */
function onThisThread(rows: Indexable, state: State, afterMs: number): void {
  const step = () => {
    let more = false;
    rows.guarded((db) => void (more = indexPendingText(db, SLICE_MS)));
    if (more) setTimeout(step, PAUSE_MS);
    else state.running = false;
  };
  // Not at once: the page that asked for the refresh, and the click after it, are served first.
  setTimeout(step, afterMs);
}
