// The record-field route's answers from the summary index's records table (./record-rows), so no
// request holds a run's records: fields are discovered from the first SAMPLE rows (file order), an
// asked path the sample lacks is accepted when any record holds a scalar there (one SQL probe), and
// values are read for the asked ids only, by primary key. Also one rollout's record (the inspector)
// and a step's ids (the truth check). Not responsible for syncing the table.
import "server-only";
import type Database from "better-sqlite3";
import { processCache } from "@/lib/cache";
import {
  rolloutRecordSchema,
  type RolloutRecord,
  type RecordFields,
  type RecordField,
} from "@/lib/schema";
import { cachedOrError, describeZodError } from "@/lib/store";
import {
  type RunLayout,
  checkFields,
  columnValues,
  discoverFields,
  isFieldPath,
  type RecordColumnsQuery,
  type RecordLike,
} from "@/lib/runs";
import { indexFor } from "./run-index";

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

/** A rollout's record, and why it could not be read (rollouts.jsonl unreadable), else null. */
export interface RecordRead {
  record: RolloutRecord | null;
  error: string | null;
}

/**
 * The rollout's record by primary key (ids as rollouts.jsonl's rolloutIdOf gives them), validated
 * again: the cache file is outside the run and may be damaged. A run without rollouts.jsonl opens
 * no database.
 */
export async function recordOf(run: RunLayout, id: string): Promise<RecordRead> {
  if (!run.rolloutsFile) return { record: null, error: null };
  const index = indexFor(run);
  const state = await index.syncedRecords();
  // No version: missing (no record, no error) or not a regular file, which the table does not say.
  if (state.version === "-") return { record: null, error: await notRegular(run.rolloutsFile) };
  const row = index.rows.handle
    .prepare("SELECT record FROM records WHERE id = ?")
    .pluck()
    .get(id) as string | undefined;
  if (row === undefined) return { record: null, error: state.readError };
  const parsed = rolloutRecordSchema.safeParse(JSON.parse(row));
  if (parsed.success) return { record: parsed.data, error: state.readError };
  return { record: null, error: `the index's copy of ${id}: ${describeZodError(parsed.error)}` };
}

/**
 * The distinct `agent_ref.name`s of the run's records (at most 50, sorted): which agents it ran,
 * so a comparison can tell two runs of one agent from two runs whose task indices name different
 * tasks. One pass over the table; none without records.
 */
export async function recordAgents(run: RunLayout): Promise<string[]> {
  if (!run.rolloutsFile) return [];
  const index = indexFor(run);
  await index.syncedRecords();
  return index.rows.handle
    .prepare(
      "SELECT a FROM (SELECT DISTINCT json_extract(record, '$.agent_ref.name') AS a FROM records) " +
        "WHERE typeof(a) = 'text' ORDER BY a LIMIT 50",
    )
    .pluck()
    .all() as string[];
}

/** Why `file` cannot be read whole, in the words of every whole-file read (a directory: refused). */
async function notRegular(file: string): Promise<string | null> {
  return (await cachedOrError("records.unversioned", file, async () => null)).error;
}

/** idsOfSteps answers, per run, while its records and the asked steps stay the same. */
const stepIds = () =>
  processCache<{ key: string; value: Map<number, string[]> }>("records.step-ids", "entries", 32);

/**
 * The ids of each of `steps`' records in rollouts.jsonl order (rowid order), in one pass over the
 * table; kept per version of the file, as pages poll for it. Steps without records are absent.
 */
export async function idsOfSteps(
  run: RunLayout,
  steps: readonly number[],
): Promise<Map<number, string[]>> {
  if (!run.rolloutsFile || steps.length === 0) return new Map();
  const index = indexFor(run);
  const { version } = await index.syncedRecords();
  const key = `${version}|${steps.join(",")}`;
  const hit = stepIds().get(run.dir);
  if (hit?.key === key) return hit.value;
  const rows = index.rows.handle
    .prepare(
      "SELECT id, step FROM records WHERE step IN (SELECT value FROM json_each(?)) ORDER BY rowid",
    )
    .all(JSON.stringify(steps)) as Array<{ id: string; step: number }>;
  const value = new Map<number, string[]>();
  for (const { id, step } of rows) {
    const ids = value.get(step);
    if (ids) ids.push(id);
    else value.set(step, [id]);
  }
  stepIds().set(run.dir, { key, value });
  return value;
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
