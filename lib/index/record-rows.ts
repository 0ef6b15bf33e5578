// A run's rollout records (rollouts.jsonl) in the summary index's database: streamed in once per
// version of the file, a few hundred bytes a rollout, so a run of a million records is indexed
// without holding them, and routes that need one record (or a step's) look it up by id. Unreadable
// lines are kept with their line numbers (the first MAX_UNREADABLE; the count is exact); a file
// that cannot be read at all gives no records and a read error. Not responsible for summarising.
import "server-only";
import type Database from "better-sqlite3";
import { fileState, lineRanges } from "@/lib/store";
import type { RolloutRecord } from "@/lib/schema";
import { readRecordRanges } from "./pool";
import {
  MAX_UNREADABLE,
  type RangeRead,
  type ReadRecord,
  type RecordRowSpec,
  type RecordsJob,
} from "./record-range";

export const CREATE_RECORDS = [
  "CREATE TABLE IF NOT EXISTS records (id TEXT PRIMARY KEY, hash TEXT NOT NULL, task INTEGER, step INTEGER, record TEXT NOT NULL)",
  "CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)",
];

/** A record's row: id, hash, task, step, its JSON. */
export const PUT_RECORD = "INSERT OR REPLACE INTO records VALUES (?, ?, ?, ?, ?)";

/**
 * Bytes of rollouts.jsonl read, parsed and written as one stretch (./record-range): some 350
 * records. The server's thread writes a stretch's records and rows within one turn of the event
 * loop (about 10 ms), so requests are answered between stretches; written and dropped within the
 * turn that received them, a stretch never lives long enough for V8's young collections to move
 * it to the old generation (batches held across turns moved 858 MB over 1M records). 256 kB
 * stretches read two at a time held the server's peak at 451-452 MB (target 450) and a table poll
 * up to 0.86 s; 128 kB: 429 MB and 0.76 s, in the same time (docs/benchmarks.md).
 */
export const RECORDS_RANGE = 128 << 10;
/** The first stretch is small: a page's first rows come after a few hundred records are read. */
const FIRST_RANGE = 64 << 10;

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

/** A fact kept beside the index's rows (the records file's version, the inputs last indexed). */
export function meta(db: Database.Database, k: string): string | null {
  const row = db.prepare("SELECT v FROM meta WHERE k = ?").get(k) as { v: string } | undefined;
  return row?.v ?? null;
}

export function setMeta(db: Database.Database, k: string, v: string): void {
  db.prepare("INSERT OR REPLACE INTO meta (k, v) VALUES (?, ?)").run(k, v);
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
 * Brings the records table up to the file's current version (nothing to do when it is already),
 * each stretch's records in a transaction of their own. Returns the file's read state.
 * `onBatch` is told after each stretch's records are in the table (the table may be read
 * meanwhile); with `read.rows`, each record comes with its record-only summary's row
 * (./record-range); with `read.workers`, the stretches are read on the index's workers.
 */
export async function syncRecords(
  db: () => Database.Database,
  file: string | null,
  onBatch?: (read: RecordsRead) => void,
  read: { rows: RecordRowSpec | null; workers: boolean } = { rows: null, workers: true },
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
      ? await streamRecords(db, { file, size, ...read }, onBatch)
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
  {
    file,
    size,
    rows,
    workers,
  }: { file: string; size: number; rows: RecordRowSpec | null; workers: boolean },
  onBatch: ((read: RecordsRead) => void) | undefined,
): Promise<RecordsState> {
  const state = noRecordsState();
  let records = 0;
  let line = 0;
  const write = (read: RangeRead, lines: number, last: boolean) => {
    for (const u of read.unreadable) bad(u.line, u.reason);
    state.unreadableCount += read.unreadableCount - read.unreadable.length;
    if (read.tornLine !== null) {
      // Only the file's end can be a write in progress; a stretch that ends mid-line was cut
      // where the file changed under the read (its next version is read again whole).
      if (last) Object.assign(state, { tornTail: true, tornLine: read.tornLine });
      else bad(read.tornLine, "cut short: the file changed while it was read");
    }
    const d = db();
    const put = d.prepare(PUT_RECORD);
    d.transaction(() => {
      for (const r of read.records) put.run(r.id, r.hash, r.task, r.step, r.text);
    })();
    records += read.records.length;
    line = Math.max(line, read.line);
    const fraction = Math.min(1, read.end / Math.max(1, size));
    onBatch?.({ records, fraction, lines: Math.max(lines, line), line, batch: read.records });
  };
  const bad = (at: number, reason: string) => {
    if (state.unreadable.length < MAX_UNREADABLE) state.unreadable.push({ line: at, reason });
    state.unreadableCount++;
  };
  try {
    // Told of its lines first, a caller states its progress against a count, not an estimate. A
    // file that stalls or goes away while it is counted is this read's error, as in the read.
    const { lines, ranges } = await lineRanges(file, RECORDS_RANGE, FIRST_RANGE);
    const jobs = ranges.map((range): RecordsJob => ({
      kind: "records",
      file,
      range,
      chunk: RECORDS_RANGE,
      rows,
    }));
    const onRange = (read: RangeRead, job: RecordsJob) => write(read, lines, job.range.to === null);
    await readRecordRanges(jobs, onRange, workers);
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
