// Everything one MLflow tracking database file gives a run, in one call a store worker can make:
// a private snapshot of the file (lib/store, so the user's files stay untouched even under a live
// trainer), whether it is MLflow's, its runs, which one is wanted, and that run's metrics into a
// PointSink. A file that cannot be read is a note naming it, never a thrown error.
import path from "node:path";
import {
  listMlflowRuns,
  mlflowSchemaProblem,
  type MlflowRunInfo,
  pickMlflowRun,
  SQLITE_SNAPSHOT_MAX_BYTES,
  withSqliteSnapshot,
} from "@/lib/store";
import type { PointSink } from "../scalar-series";
import { readMlflowDbMetrics } from "./metrics";

export interface MlflowDatabaseRead {
  /** The database's runs, deleted ones left out (empty when it could not be read). */
  runs: MlflowRunInfo[];
  /** The run whose metrics were read, or null (the notes say why). */
  picked: MlflowRunInfo | null;
  /** Metric rows read for `picked`. */
  rows: number;
  /** Each names `rel`. */
  notes: string[];
}

/** `err`'s message, said of `rel` rather than of the file's base name the store names. */
function noteOf(err: unknown, file: string, rel: string): string {
  const message = err instanceof Error ? err.message : String(err);
  const base = `${path.basename(file)}: `;
  return `${rel}: ${message.startsWith(base) ? message.slice(base.length) : message}`;
}

/**
 * Reads the MLflow tracking database at `file` (named `rel` in notes and as the points' source):
 * its runs, the one `wanted` names (or the only one), and that run's metrics into `into`.
 */
export async function parseMlflowDatabase(
  file: string,
  rel: string,
  into: PointSink,
  wanted?: string | null,
  maxBytes = SQLITE_SNAPSHOT_MAX_BYTES,
): Promise<MlflowDatabaseRead> {
  const out: MlflowDatabaseRead = { runs: [], picked: null, rows: 0, notes: [] };
  try {
    await withSqliteSnapshot(file, maxBytes, (db) => {
      const problem = mlflowSchemaProblem(db);
      if (problem) {
        out.notes.push(`${rel}: ${problem}`);
        return;
      }
      const listed = listMlflowRuns(db);
      out.runs = listed.runs;
      out.notes.push(...listed.notes.map((n) => `${rel}: ${n}`));
      const { run, note } = pickMlflowRun(listed.runs, wanted);
      if (note) out.notes.push(`${rel}: ${note}`);
      if (!run) return;
      out.picked = run;
      const read = readMlflowDbMetrics(db, run.run_uuid, rel, into);
      out.rows = read.rows;
      out.notes.push(...read.notes);
    });
  } catch (err) {
    out.notes.push(noteOf(err, file, rel));
  }
  return out;
}
