// Records first while rollouts.jsonl is still being read: a first index of a run with no store
// summarises each batch of records as it goes into the records table, from the records the read
// just parsed (parsed once: nothing is read back from the table), so rows show within a second and
// the index ends when the file does. The rows are keyed as the index keys plain rollouts; the update
// after the read checks every special row's key, so a rollout that turns out to be special (an
// attempt group found later in the file) is summarised again there.
// Progress is one count that only moves forward (docs/summary-index.md, "Progress"): `total` is the
// file's lines, counted before the read; `done` the lines read (records, unreadable and blank lines),
// held below `total` until the index ends (./run-index finishes it).
// Not responsible for the read (./record-rows syncRecords) or the update after it (./update).
import "server-only";
import type { IndexProgress } from "@/lib/schema";
import { recordSummary } from "@/lib/rollout";
import { attemptOf } from "@/lib/store";
import { startProgress } from "./update";
import { RowSink } from "./row-sink";
import { markSpecial, PLAIN_KEY_SUFFIX } from "./plain-records";
import type { RecordsRead } from "./record-rows";
import type { RecordRowSpec } from "./record-range";
import type { RunLayout } from "@/lib/runs";
import { inputOf, plainKeyPrefix, runRollouts, type RunRollouts } from "./keys";
import type { SummaryRows } from "./rows";

/**
 * Files of fewer lines are summarised after the read, in slices (./update): summarising as they are
 * read doubles the work each 1 MB chunk holds the event loop for, which only a large file's first
 * rows are worth.
 */
export const FOLLOW_FROM = 10_000;

export class RecordsFollower {
  private r: RunRollouts | null = null;
  private sink: RowSink | null = null;
  private prefix = "";
  private failure: unknown = null;

  constructor(
    private readonly run: RunLayout,
    private readonly rows: SummaryRows,
    private readonly progress: IndexProgress,
  ) {}

  /** How the read makes each record's row as it parses it (./record-range), keyed as here. */
  get rowSpec(): RecordRowSpec {
    const input = inputOf(runRollouts(this.run, null, null, []), "", null);
    return { keyPrefix: plainKeyPrefix(this.run), input };
  }

  /** Told after each batch of records is in the table (syncRecords' onBatch). */
  readonly onBatch = (read: RecordsRead): void => {
    if (this.failure || read.lines < FOLLOW_FROM) return;
    const p = this.progress;
    try {
      if (!this.sink) this.start(read.lines);
      // A file that grew since it was counted: its lines so far, and one more to come.
      if (read.line > p.total) p.total = read.line + 1;
      p.records_read = read.fraction;
      this.summarise(read);
    } catch (err) {
      this.failure = err; // the update after the read fails with it (a damaged database)
    }
    p.done = Math.max(p.done, Math.min(read.line, p.total - 1));
  };

  private start(lines: number): void {
    // Nothing is special yet (no store, and the attempt groups are found after the read).
    this.r = runRollouts(this.run, null, null, []);
    markSpecial(this.rows.handle, []);
    this.prefix = plainKeyPrefix(this.run);
    startProgress(this.progress, Math.max(1, lines));
    // The rows' own count would move `done` by rows, not lines: this sink counts nothing.
    this.sink = new RowSink(this.rows, { ...this.progress });
  }

  /** The batch's rows, written unless a row of the same record is there already. */
  private summarise(read: RecordsRead): void {
    const r = this.r as RunRollouts;
    const sink = this.sink as RowSink;
    const stored = this.rows.keysOf(read.batch.map((b) => b.id));
    const seen = new Set<string>();
    for (const b of read.batch) {
      // An attempt (`R-aN`) is an attempt group's for sure: summarised with its group after the read.
      if (attemptOf(b.id) !== null) continue;
      const key = this.prefix + b.hash + PLAIN_KEY_SUFFIX;
      const had = stored.get(b.id);
      if (had === key) continue;
      // A rollout with a row already (an earlier index cut short, or its id twice in this batch)
      // has its old tags replaced.
      const replaces = had !== undefined || seen.has(b.id);
      seen.add(b.id);
      // Its row was made where it was read, under the same key (./record-range).
      if (b.row?.key === key) sink.addMade({ id: b.id, made: b.row, replaces });
      else sink.add(recordSummary(inputOf(r, b.id, JSON.parse(b.text))), key, replaces);
    }
    sink.flush();
  }

  /** Whether rows were written as the file was read (the update after it goes on from them). */
  get started(): boolean {
    return this.sink !== null;
  }

  /** After the read: the failure of a batch, if one failed. */
  finish(): void {
    if (this.failure) throw this.failure;
  }
}
