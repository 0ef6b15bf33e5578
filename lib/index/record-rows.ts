// A run's rollout records (rollouts.jsonl) in the summary index's database: streamed in once per
// version of the file, a few hundred bytes a rollout, so a run of a million records is indexed
// without holding them, and routes that need one record (or a step's) look it up by id. Unreadable
// lines are kept with their line numbers (the first MAX_UNREADABLE; the count is exact); a file
// that cannot be read at all gives no records and a read error. Not responsible for summarising.
import "server-only";
import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import { countLines, readJsonl, fileState, describeZodError } from "@/lib/store";
import { parseRolloutRecord, rolloutIdOf, type RolloutRecord } from "@/lib/schema";

export const CREATE_RECORDS = [
  "CREATE TABLE IF NOT EXISTS records (id TEXT PRIMARY KEY, hash TEXT NOT NULL, task INTEGER, step INTEGER, record TEXT NOT NULL)",
  "CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)",
];

/** A record's row: id, hash, task, step, its JSON. */
export const PUT_RECORD = "INSERT OR REPLACE INTO records VALUES (?, ?, ?, ?, ?)";

/** Unreadable lines listed by line number; past it they are only counted. */
const MAX_UNREADABLE = 1000;
/** Records per transaction at most: SQLite's per-transaction cost is small against them. */
const RECORDS_BATCH = 2000;
/**
 * Bytes read between two turns of the event loop: 256 kB is some 700 records, about 20 ms of
 * parsing. Read a megabyte at a time, 1,000,000 records held the loop about 100 ms at every turn,
 * and a request (a dozen turns) waited 0.8-2 s while a large run indexed.
 */
const RECORDS_CHUNK = 256 << 10;
/** The first batch is small: a page's first rows come after a few hundred records are read. */
const FIRST_BATCH = 500;

/**
 * Whether a batch of `records` records of `bytes` line bytes goes into the table now; the read
 * also closes it at the end of each chunk. So a batch's records and their summaries
 * (./records-follow) are written and dropped within the turn of the event loop that read them:
 * held across turns, V8's young-generation collections (which run at the turn's end) found them
 * alive twice and moved them to the old generation. Batches of 2,000 records (about three chunks)
 * moved 858 MB there over 1M records and let a server's heap grow to 270 MB between its full
 * collections; batches within a chunk move 14 MB (`node --trace-gc-nvp`, docs/benchmarks.md).
 */
export const recordsBatchFull = (records: number, bytes: number, first: boolean): boolean =>
  records >= (first ? FIRST_BATCH : RECORDS_BATCH) || bytes >= RECORDS_CHUNK;

export interface RecordsState {
  /** The first unreadable lines, and how many there are. */
  unreadable: Array<{ line: number; reason: string }>;
  unreadableCount: number;
  tornTail: boolean;
  /** The line number of an unterminated last line that does not parse (not counted as unreadable). */
  tornLine?: number | null;
  readError: string | null;
  /** The version of rollouts.jsonl the records table holds ("-" without one). */
  version: string;
}

export const noRecordsState = (readError: string | null = null, version = "-"): RecordsState => ({
  unreadable: [],
  unreadableCount: 0,
  tornTail: false,
  tornLine: null,
  readError,
  version,
});

/** The hash a record's rows are keyed by (the summary index's row key holds it). */
export const hashRecord = (r: RolloutRecord): string => hashOfText(JSON.stringify(r));

/** hashRecord of a record already serialised (JSON.stringify of it): one serialisation, not two. */
export const hashOfText = (text: string): string => createHash("sha1").update(text).digest("hex");

/** A fact kept beside the index's rows (the records file's version, the inputs last indexed). */
export function meta(db: Database.Database, k: string): string | null {
  const row = db.prepare("SELECT v FROM meta WHERE k = ?").get(k) as { v: string } | undefined;
  return row?.v ?? null;
}

export function setMeta(db: Database.Database, k: string, v: string): void {
  db.prepare("INSERT OR REPLACE INTO meta (k, v) VALUES (?, ?)").run(k, v);
}

/** One record as read: parsed once, handed on to whoever summarises it (./records-follow). */
export interface ReadRecord {
  id: string;
  hash: string;
  record: RolloutRecord;
  /** The record's JSON as stored (and hashed): serialised once. */
  text: string;
}

/** How far a sync of rollouts.jsonl has got: records in the table so far, and the file read. */
export interface RecordsRead {
  records: number;
  /** Bytes read over the file's size (0 … 1). */
  fraction: number;
  /** The file's lines, counted before the read (each is a record or an unreadable line). */
  lines: number;
  /** The last line read (records, unreadable and blank lines all count). */
  line: number;
  /** This batch's records, as they went into the table. */
  batch: readonly ReadRecord[];
}

/**
 * Brings the records table up to the file's current version (nothing to do when it is already);
 * `write` runs each batch in the caller's guarded transaction. Returns the file's read state.
 * `onBatch` is told after each batch is in the table (the table may be read meanwhile).
 */
export async function syncRecords(
  db: () => Database.Database,
  file: string | null,
  onBatch?: (read: RecordsRead) => void,
): Promise<RecordsState> {
  // A directory, FIFO or device at its path is refused by name, never taken for no records.
  const { version, error, size } = file
    ? await fileState(file)
    : { version: "-", error: null, size: 0 };
  const stored = meta(db(), "records_version");
  const kept = JSON.parse(meta(db(), "records_state") ?? "{}") as Partial<RecordsState>;
  // A state kept before torn lines were told (no `tornLine`) is read again, once.
  if (stored === version && "tornLine" in kept) return { ...noRecordsState(), ...kept, version };
  db().exec("DELETE FROM records");
  const state =
    file && !error && version !== "-"
      ? await streamRecords(db, file, onBatch, size)
      : noRecordsState(error);
  state.version = version;
  const d = db();
  d.transaction(() => {
    setMeta(d, "records_version", version);
    setMeta(d, "records_state", JSON.stringify(state));
  })();
  return state;
}

async function streamRecords(
  db: () => Database.Database,
  file: string,
  onBatch: ((read: RecordsRead) => void) | undefined,
  size: number,
): Promise<RecordsState> {
  const state = noRecordsState();
  let batch: ReadRecord[] = [];
  let batchBytes = 0;
  let records = 0;
  let bytes = 0;
  let line = 0;
  let lines = 0;
  const flush = () => {
    const d = db();
    const put = d.prepare(PUT_RECORD);
    d.transaction(() => {
      for (const r of batch) put.run(r.id, r.hash, r.record._ng_task_index, r.record.step, r.text);
    })();
    records += batch.length;
    const fraction = Math.min(1, bytes / Math.max(1, size));
    onBatch?.({ records, fraction, lines: Math.max(lines, line), line, batch });
    batch = [];
    batchBytes = 0;
  };
  const bad = (at: number, reason: string) => {
    if (state.unreadable.length < MAX_UNREADABLE) state.unreadable.push({ line: at, reason });
    state.unreadableCount++;
  };
  try {
    // Told of its lines first, a caller states its progress against a count, not an estimate. A
    // file that stalls or goes away while it is counted is this read's error, as in the read.
    if (onBatch) lines = await countLines(file);
    const res = await readJsonl(
      file,
      (l) => {
        line = l.line;
        if (l.problem) return bad(l.line, l.problem);
        const parsed = parseRolloutRecord(l.value);
        if (!parsed.success) return bad(l.line, describeZodError(parsed.error));
        const r = parsed.data;
        const id = rolloutIdOf(r);
        if (id === null) return;
        const text = JSON.stringify(r);
        batch.push({ id, hash: hashOfText(text), record: r, text });
        batchBytes += l.bytes;
        if (recordsBatchFull(batch.length, batchBytes, records === 0)) flush();
      },
      undefined,
      (n) => {
        bytes += n;
        // A chunk's lines are all read: its batch goes in before the event loop turns.
        if (batch.length > 0) flush();
      },
      undefined,
      RECORDS_CHUNK,
    );
    line = Math.max(line, res.tornTail?.line ?? 0);
    flush();
    state.tornTail = res.tornTail !== null;
    state.tornLine = res.tornTail?.line ?? null;
  } catch (err) {
    db().exec("DELETE FROM records");
    return noRecordsState(`rollouts.jsonl: ${(err as Error).message}`);
  }
  return state;
}

/** The hashes of `ids`' records (ids without one are absent). */
export function recordHashes(db: Database.Database, ids: readonly string[]): Map<string, string> {
  const rows = db
    .prepare("SELECT r.id, r.hash FROM json_each(?) j JOIN records r ON r.id = j.value")
    .all(JSON.stringify(ids)) as Array<{ id: string; hash: string }>;
  return new Map(rows.map((r) => [r.id, r.hash]));
}

/**
 * The records of `ids` with their hashes (ids without one are absent). Stored records were
 * validated as they were read from the file, so they are only parsed here.
 */
export function recordsOf(
  db: Database.Database,
  ids: readonly string[],
): Map<string, { hash: string; record: RolloutRecord }> {
  const rows = db
    .prepare("SELECT r.id, r.hash, r.record FROM json_each(?) j JOIN records r ON r.id = j.value")
    .all(JSON.stringify(ids)) as Array<{ id: string; hash: string; record: string }>;
  return new Map(
    rows.map((r) => [r.id, { hash: r.hash, record: JSON.parse(r.record) as RolloutRecord }]),
  );
}
