// The record-field route's answers from the summary index's records table (./record-rows), so no
// request holds a run's records: fields are discovered from the first SAMPLE rows (file order), an
// asked path the sample lacks is accepted when any record holds a scalar there (one SQL probe), and
// values are read for the asked ids only, by primary key. Not responsible for syncing the table.
import "server-only";
import type Database from "better-sqlite3";
import type { RecordFields, RecordField } from "@/lib/schema/api-groups";
import type { RunLayout } from "./runs-root";
import { indexFor } from "./summary-index";
import {
  checkFields,
  columnValues,
  discoverFields,
  isFieldPath,
  type RecordColumnsQuery,
  type RecordLike,
} from "./record-fields";

/** Records read to discover the fields: a run's records share one shape, so a sample lists them. */
export const SAMPLE = 2000;
/** The json_type()s of what fieldValue calls a scalar (stored numbers are finite: JSON has no ∞). */
const SCALAR_TYPES = "('text', 'integer', 'real', 'true', 'false')";

/**
 * `read` over the run's index database once its records table is at rollouts.jsonl's current
 * version (the index's shared, one-at-a-time sync awaited). The
 * handle is taken as `read` runs, synchronously: an idle index closes it between requests.
 */
export async function withSyncedRecords<T>(
  run: RunLayout,
  read: (db: Database.Database) => T,
): Promise<T> {
  const index = indexFor(run);
  await index.syncedRecords();
  return read(index.rows.handle);
}

/** SQLite's JSON path of a dotted field path (each segment quoted, `"` and `\` escaped). */
export const jsonPath = (path: string): string =>
  "$" +
  path
    .split(".")
    .map((s) => `.${JSON.stringify(s)}`)
    .join("");

/** The scalar fields of the first SAMPLE records (their `records` counts are the sample's). */
export function sampleFields(db: Database.Database): RecordField[] {
  const rows = db
    .prepare(`SELECT record FROM records ORDER BY rowid LIMIT ${SAMPLE}`)
    .pluck()
    .all() as string[];
  return discoverFields(rows.map((r) => JSON.parse(r) as RecordLike));
}

/** Whether any record holds a scalar at `path` (a field the sample did not show). */
export function anyScalarAt(db: Database.Database, path: string): boolean {
  if (!isFieldPath(path)) return false;
  const sql = `SELECT 1 FROM records WHERE json_type(record, ?) IN ${SCALAR_TYPES} LIMIT 1`;
  return db.prepare(sql).get(jsonPath(path)) !== undefined;
}

/** checkFields against the sampled fields, accepting asked paths that some later record holds. */
export function checkFieldsSql(
  db: Database.Database,
  param: string,
  asked: readonly string[],
  fields: readonly string[],
): void {
  const known = new Set(fields);
  const missing = asked.filter((p) => !known.has(p) && !anyScalarAt(db, p));
  checkFields(param, missing, fields);
}

/** The records of `ids` (those that have one), parsed. */
export function recordsById(
  db: Database.Database,
  ids: readonly string[],
): Map<string, RecordLike> {
  const rows = db
    .prepare("SELECT r.id, r.record FROM json_each(?) j JOIN records r ON r.id = j.value")
    .all(JSON.stringify(ids)) as Array<{ id: string; record: string }>;
  return new Map(rows.map((r) => [r.id, JSON.parse(r.record) as RecordLike]));
}

/** recordColumns (./record-fields) over the records table. */
export function recordColumnsSql(db: Database.Database, query: RecordColumnsQuery): RecordFields {
  const fields = sampleFields(db);
  checkFieldsSql(
    db,
    "columns",
    query.columns,
    fields.map((f) => f.path),
  );
  if (query.columns.length === 0) return { fields, values: {} };
  return { fields, values: columnValues(recordsById(db, query.id), query) };
}
