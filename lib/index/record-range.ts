// One stretch of rollouts.jsonl read for the records table (./record-rows): each line parsed and
// checked once, serialised and hashed, and, when asked, its record-only summary made into the
// summaries table's row values and tags (./columns), all on a store worker thread (./pool's
// readRecordRanges) so the server's thread only writes them; without a worker, on this thread.
// Lines are numbered as in the whole file. Not responsible for writing anything.
import "server-only";
import { attemptOf, describeZodError, readJsonl, type LineRange } from "@/lib/store";
import { recordSummary, type SummarizeInput } from "@/lib/rollout";
import { recordTextHash } from "@/lib/runs";
import { parseRolloutRecord, rolloutIdOf } from "@/lib/schema";
import { rowOf, tagsOf } from "./columns";
import { PLAIN_KEY_SUFFIX } from "./plain-records";

/** Unreadable lines listed by line number; past it they are only counted. */
export const MAX_UNREADABLE = 1000;

/**
 * How a record-only rollout's row is made: its key's prefix (./keys plainKeyPrefix) and the
 * summariser's input (./keys inputOf, a run with no store) whose id and record each record sets.
 */
export interface RecordRowSpec {
  keyPrefix: string;
  input: SummarizeInput;
}

/** A stretch to read: `chunk` bytes a read (its range is a few of them at most). */
export interface RecordsJob {
  kind: "records";
  file: string;
  range: LineRange;
  chunk: number;
  rows: RecordRowSpec | null;
}

/** A record as read: its records-table values, and its summary's row when one was asked for. */
export interface ReadRecord {
  id: string;
  hash: string;
  task: number | null;
  step: number | null;
  /** The record's JSON as stored and hashed: serialised once. */
  text: string;
  /** The summaries table's row values and tags under its plain key; null for an attempt (`R-aN`). */
  row: { key: string; values: unknown[]; tags: Array<[string, number]> } | null;
}

export interface RangeRead {
  records: ReadRecord[];
  /** The first MAX_UNREADABLE unreadable lines, and how many there are. */
  unreadable: Array<{ line: number; reason: string }>;
  unreadableCount: number;
  /** An unterminated last line that does not parse (a write in progress): its line number. */
  tornLine: number | null;
  /** The last line read (records, unreadable and blank lines all count). */
  line: number;
  /** Where the read ended (a byte offset in the file). */
  end: number;
}

export const isRecordsJob = (job: { kind: string }): job is RecordsJob => job.kind === "records";

/** Reads the job's stretch of lines; a file that cannot be read rejects. */
export async function readRecordRange(job: RecordsJob): Promise<RangeRead> {
  const out: RangeRead = {
    records: [],
    unreadable: [],
    unreadableCount: 0,
    tornLine: null,
    line: job.range.firstLine - 1,
    end: job.range.from,
  };
  const bad = (line: number, reason: string) => {
    if (out.unreadable.length < MAX_UNREADABLE) out.unreadable.push({ line, reason });
    out.unreadableCount++;
  };
  const spec = job.rows;
  const res = await readJsonl(
    job.file,
    (l) => {
      out.line = l.line;
      if (l.problem) return bad(l.line, l.problem);
      const parsed = parseRolloutRecord(l.value);
      if (!parsed.success) return bad(l.line, describeZodError(parsed.error));
      const r = parsed.data;
      const id = rolloutIdOf(r);
      if (id === null) return;
      const text = JSON.stringify(r);
      const hash = recordTextHash(text);
      let row: ReadRecord["row"] = null;
      if (spec && attemptOf(id) === null) {
        const key = spec.keyPrefix + hash + PLAIN_KEY_SUFFIX;
        const summary = recordSummary({ ...spec.input, rolloutId: id, record: r });
        row = { key, values: rowOf(summary, key), tags: tagsOf(summary) };
      }
      out.records.push({ id, hash, task: r._ng_task_index, step: r.step, text, row });
    },
    undefined,
    undefined,
    undefined,
    job.chunk,
    job.range,
  );
  out.end = res.bytes;
  out.line = Math.max(out.line, res.tornTail?.line ?? 0);
  out.tornLine = res.tornTail?.line ?? null;
  return out;
}
