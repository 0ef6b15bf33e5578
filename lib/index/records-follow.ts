// Records first while rollouts.jsonl is still being read: a first index of a run with
// no store writes its rollouts' rows from their records as the records table fills, instead of
// after the whole file (a million records take some 12 s to read). The rows are keyed as the index
// keys plain rollouts; the update after the read checks every row's key, so a rollout that turns
// out to be special (an attempt group found later in the file) is summarised again there.
// Not responsible for the read (./record-rows syncRecords) or the update after it (./update).
import "server-only";
import type { IndexProgress } from "@/lib/schema";
import { RowSink, startProgress, summarisePlain } from "./update";
import { attemptRecordIds, markSpecial } from "./plain-records";
import type { RecordsRead } from "./record-rows";
import type { RunLayout } from "@/lib/runs";
import { plainKeyPrefix, runRollouts, type RunRollouts } from "./keys";
import type { SummaryRows } from "./rows";

/** Records in the table before rows are written from them (a small file is read before then). */
export const FOLLOW_FROM = 10_000;

export class RecordsFollower {
  private r: RunRollouts | null = null;
  private sink: RowSink | null = null;
  /** The records table's last rowid summarised. */
  private after = 0;
  private pass: Promise<void> | null = null;
  private failure: unknown = null;

  constructor(
    private readonly run: RunLayout,
    private readonly rows: SummaryRows,
    private readonly progress: IndexProgress,
  ) {}

  /** Told after each batch of records is in the table (syncRecords' onBatch). */
  readonly onBatch = (read: RecordsRead): void => {
    if (!this.sink && read.records < FOLLOW_FROM) return;
    if (!this.sink) this.start();
    // Of the rollouts read so far: the run's count is known only when the file is read.
    this.progress.total = read.records;
    this.progress.records_read = read.fraction;
    // One pass at a time; a batch that lands meanwhile is the next pass's.
    this.pass ??= this.catchUp().finally(() => (this.pass = null));
  };

  private start(): void {
    const db = this.rows.handle;
    this.r = runRollouts(this.run, null, null, attemptRecordIds(db, new Set()));
    markSpecial(db, this.r.ids);
    startProgress(this.progress, FOLLOW_FROM); // the batch's own count follows at once
    this.sink = new RowSink(this.rows, this.progress);
  }

  /** Summarises the records the table holds past the last pass. */
  private async catchUp(): Promise<void> {
    try {
      const until = this.rows.handle.prepare("SELECT max(rowid) FROM records").pluck().get();
      const prefix = plainKeyPrefix(this.run);
      const r = this.r as RunRollouts;
      const sink = this.sink as RowSink;
      this.after = await summarisePlain(this.rows, r, prefix, sink, this.after, Number(until));
    } catch (err) {
      this.failure ??= err; // the update after the read fails with it (a damaged database)
    }
  }

  /** After the read: waits for the pass under way; the update goes on from the table. */
  async finish(): Promise<void> {
    await this.pass;
    this.progress.records_read = null;
    if (this.failure) throw this.failure;
  }
}
