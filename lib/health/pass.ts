// Runs a health pass (./sql healthParts, a generator yielding between its statements)
// without holding the event loop: on a read-only connection of its own to the index's
// file, inside one read transaction (the rows it counts are of one moment while the index keeps
// writing), giving other requests their turn between statements. An index held in memory has no
// second connection: its pass runs at once on its handle. Does not cache; ./run-health does.
import "server-only";
import Database from "better-sqlite3";

/** The reader's page cache, in kB. */
const READER_CACHE_KB = 2048;

/** Runs `pass` to its end at once. */
export function drain<T>(pass: Generator<void, T>): T {
  for (;;) {
    const step = pass.next();
    if (step.done) return step.value;
  }
}

/**
 * Work between turns, and each turn a short timer rather than setImmediate: a request other than
 * this one needs several rounds of I/O, and a timer lets the loop run them all, not one per turn.
 */
const SLICE_MS = 8;
const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

/**
 * `pass` over `db`'s rows, paced. Its first statement runs before this returns (so the rows it
 * counts are those of the caller's moment); the rest after the loop had a turn each.
 */
export async function paced<T>(
  db: Database.Database,
  pass: (db: Database.Database) => Generator<void, T>,
): Promise<T> {
  if (db.memory || db.name === "" || db.name === ":memory:") return drain(pass(db));
  let reader: Database.Database;
  try {
    reader = new Database(db.name, { readonly: true, fileMustExist: true });
  } catch {
    return drain(pass(db)); // no second connection: the pass as before, on the writer's
  }
  try {
    // Its scans read tables far larger than any page cache, once each: SQLite's build default of
    // 16 MB would only add that much to the server's peak as an index ends (docs/benchmarks.md).
    reader.pragma(`cache_size = -${READER_CACHE_KB}`);
    reader.exec("BEGIN");
    const it = pass(reader);
    let step = it.next(); // reads now: the transaction's snapshot is this moment's
    let slice = performance.now();
    while (!step.done) {
      if (performance.now() - slice >= SLICE_MS) {
        await turn();
        slice = performance.now();
      }
      step = it.next();
    }
    return step.value;
  } finally {
    if (reader.inTransaction) reader.exec("COMMIT");
    reader.close();
  }
}
