// What SQLite alone costs a records-only index, so the gap to DuckDB is told apart from our code
// (bench/scale.bench.ts; the app does not use it). The index's own tables, indexes and pragmas
// (SummaryRows on a fresh file) are given every record's row and summary already made, a batch at
// a time as the index writes them. Only the SQLite calls are timed: the records' inserts
// (syncRecords' statement), the summaries' writes with their tags (SummaryRows.write, less the
// time it takes to make their values), and the secondary indexes, dropped before the load and
// built after it (the index cannot: it serves the table while it writes). The parse and the
// summaries are timed apart. If the writes alone pass 10x DuckDB, no code of ours around them
// meets that target with this schema in SQLite (docs/benchmarks.md).
import "server-only";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { getRun, recordTextHash } from "@/lib/runs";
import { recordSummary } from "@/lib/rollout";
import { parseRolloutRecord, rolloutIdOf, type RolloutRecord } from "@/lib/schema";
import { inputOf, plainKeyPrefix, runRollouts } from "./keys";
import { PLAIN_KEY_SUFFIX } from "./plain-records";
import { PUT_RECORD, RECORDS_RANGE } from "./record-rows";
import { rowOf, tagsOf, type SummaryRow } from "./columns";
import { SummaryRows } from "./rows";

export interface RecordsWriteFloor {
  records: number;
  /** Reading the file and splitting its lines; JSON.parse, the record check and serialising. */
  readMs: number;
  parseMs: number;
  /** recordSummary of every record (the product's own, as the index calls it). */
  summariseMs: number;
  /** Making the summaries' column values and tags (rowOf, tagsOf), timed on their own. */
  rowsMs: number;
  /** SQLite: the records table's inserts; the summaries and their tags, less `rowsMs`. */
  recordsSqlMs: number;
  summariesSqlMs: number;
  /** SQLite: the summaries' and tags' secondary indexes, built after the load; how many. */
  indexesSqlMs: number;
  indexes: number;
}

/** The floor over `runName`'s rollouts.jsonl under `root`, written to a fresh temporary index. */
export async function recordsWriteFloor(root: string, runName: string): Promise<RecordsWriteFloor> {
  const run = await getRun(runName, root);
  const file = run.rolloutsFile as string;
  const dir = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-floor-"));
  const rows = new SummaryRows(path.join(dir, "index.db"));
  const out: RecordsWriteFloor = {
    records: 0,
    readMs: 0,
    parseMs: 0,
    summariseMs: 0,
    rowsMs: 0,
    recordsSqlMs: 0,
    summariesSqlMs: 0,
    indexesSqlMs: 0,
    indexes: 0,
  };
  try {
    await rows.open();
    const db = rows.handle;
    // The most SQLite can be helped: every secondary index dropped, and built after the load.
    const indexes = db
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('summaries', 'summary_tags')",
      )
      .all() as Array<{ name: string; sql: string }>;
    for (const i of indexes) db.exec(`DROP INDEX ${i.name}`);
    const put = db.prepare(PUT_RECORD);
    const r = runRollouts(run, null, null, []);
    const prefix = plainKeyPrefix(run);
    let t = performance.now();
    const lines = readFileSync(file, "utf8").split("\n");
    out.readMs = performance.now() - t;
    type Read = { id: string; hash: string; record: RolloutRecord; text: string };
    const write = (batch: Read[]) => {
      let t = performance.now();
      const summaries: SummaryRow[] = batch.map((b) => ({
        summary: recordSummary(inputOf(r, b.id, b.record)),
        key: prefix + b.hash + PLAIN_KEY_SUFFIX,
        replaces: false,
      }));
      out.summariseMs += performance.now() - t;
      t = performance.now();
      db.transaction(() => {
        for (const b of batch)
          put.run(b.id, b.hash, b.record._ng_task_index, b.record.step, b.text);
      })();
      out.recordsSqlMs += performance.now() - t;
      t = performance.now();
      for (const { summary, key } of summaries) {
        rowOf(summary, key);
        tagsOf(summary);
      }
      out.rowsMs += performance.now() - t;
      t = performance.now();
      rows.write(summaries);
      // The write makes each row's values again (rowOf, tagsOf): that part is ours, not SQLite's.
      out.summariesSqlMs += performance.now() - t;
      out.records += batch.length;
    };
    // Batches of a stretch's bytes as the index writes them, each parsed just before it is written.
    let batch: Read[] = [];
    let bytes = 0;
    t = performance.now();
    for (const [i, line] of lines.entries()) {
      if (line.length === 0) continue;
      const parsed = parseRolloutRecord(JSON.parse(line));
      if (!parsed.success) throw new Error(`line ${i + 1}: not a record`);
      const id = rolloutIdOf(parsed.data) as string;
      const text = JSON.stringify(parsed.data);
      const hash = recordTextHash(text);
      batch.push({ id, hash, record: parsed.data, text });
      bytes += Buffer.byteLength(line) + 1;
      if (bytes < RECORDS_RANGE) continue;
      out.parseMs += performance.now() - t;
      write(batch);
      batch = [];
      bytes = 0;
      t = performance.now();
    }
    out.parseMs += performance.now() - t;
    if (batch.length > 0) write(batch);
    t = performance.now();
    for (const i of indexes) db.exec(i.sql);
    out.indexesSqlMs = performance.now() - t;
    out.indexes = indexes.length;
    out.summariesSqlMs -= out.rowsMs;
    return out;
  } finally {
    rows.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
