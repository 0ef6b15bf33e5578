// The scalar fields of a run's rollout records (strings, numbers, booleans at the top level and
// up to two objects down, e.g. `agent_ref.name`, `responses_create_params.metadata.x`) and their
// values, for the rollouts table's record columns and the GRPO grouping key. Arrays are not walked
// (a response's output items are not columns). Pure: records come read (lib/runs/rollout-records).
import { z } from "zod";
import { InvalidInputError } from "@/lib/errors";
import type { FieldValue, RecordField } from "@/lib/schema";

export type RecordLike = Readonly<Record<string, unknown>>;

/** Path segments a field may have: top level plus two objects down. */
export const MAX_DEPTH = 3;
/** At most this many fields are listed: a record with thousands of keys is not a column picker. */
export const MAX_FIELDS = 200;
/** A key that can be a path segment: no dot (the separator), no spaces, not absurdly long. */
const KEY = /^[^.\s]{1,64}$/;

/** Whether `path` could name a field: at most MAX_DEPTH segments, each a KEY. */
export const isFieldPath = (path: string): boolean => {
  const segments = path.split(".");
  return segments.length <= MAX_DEPTH && segments.every((s) => KEY.test(s));
};

type Scalar = "string" | "number" | "boolean";

function scalarType(v: unknown): Scalar | null {
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "boolean";
  return typeof v === "number" && Number.isFinite(v) ? "number" : null;
}

const isObject = (v: unknown): v is RecordLike =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Each (path, scalar) of one record, walked with a stack (no recursion), depth ≤ MAX_DEPTH. */
function scalarsOf(record: RecordLike, visit: (path: string, type: Scalar) => void): void {
  const stack: Array<[string, RecordLike, number]> = [["", record, 1]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [prefix, obj, depth] = top;
    for (const [key, value] of Object.entries(obj)) {
      if (!KEY.test(key)) continue;
      const path = prefix ? `${prefix}.${key}` : key;
      const type = scalarType(value);
      if (type) visit(path, type);
      else if (isObject(value) && depth < MAX_DEPTH) stack.push([path, value, depth + 1]);
    }
  }
}

/** The records' scalar fields, by path, with the types seen and how many records hold each. */
export function discoverFields(records: Iterable<RecordLike>): RecordField[] {
  const seen = new Map<string, { types: Set<Scalar>; records: number }>();
  for (const record of records)
    scalarsOf(record, (path, type) => {
      let f = seen.get(path);
      if (!f) {
        if (seen.size >= MAX_FIELDS) return;
        f = { types: new Set(), records: 0 };
        seen.set(path, f);
      }
      f.types.add(type);
      f.records++;
    });
  return [...seen]
    .map(([path, f]) => ({ path, types: [...f.types].sort(), records: f.records }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The scalar at `path` in `record`, or null (absent, null, an object, an array, not finite). */
export function fieldValue(record: RecordLike, path: string): FieldValue {
  let cur: unknown = record;
  for (const key of path.split(".")) {
    if (!isObject(cur) || !Object.hasOwn(cur, key)) return null;
    cur = cur[key];
  }
  return asScalar(cur);
}

function asScalar(v: unknown): FieldValue {
  if (typeof v === "string" || typeof v === "boolean") return v;
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** Throws an InvalidInputError naming each asked path that is not a field, and the allowed ones. */
export function checkFields(param: string, asked: readonly string[], fields: readonly string[]) {
  const known = new Set(fields);
  const bad = asked.filter((p) => !known.has(p));
  if (bad.length === 0) return;
  const allowed = fields.length ? fields.map((f) => JSON.stringify(f)).join(", ") : "none";
  throw new InvalidInputError(
    `${param}: ${bad.map((b) => JSON.stringify(b.slice(0, 120))).join(", ")} ${
      bad.length === 1 ? "is not a scalar field" : "are not scalar fields"
    } of this run's rollout records; allowed: ${allowed}`,
  );
}

/** At most this many rollouts' values per request (a table window is a few dozen rows). */
export const MAX_IDS = 500;

/** `?columns=a,b&id=x&id=y`: record field paths and the rollouts whose values are wanted. */
export const recordColumnsQuerySchema = z.object({
  columns: z
    .string()
    .max(2000)
    .optional()
    .transform((v) => (v ? [...new Set(v.split(",").filter(Boolean))] : [])),
  id: z.array(z.string().max(200)).max(MAX_IDS, `at most ${MAX_IDS} ids per request`),
});
export type RecordColumnsQuery = z.infer<typeof recordColumnsQuerySchema>;

export function parseRecordColumnsQuery(params: URLSearchParams): RecordColumnsQuery {
  const parsed = recordColumnsQuerySchema.safeParse({
    columns: params.get("columns") ?? undefined,
    id: params.getAll("id"),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidInputError(
      `${String(issue?.path[0] ?? "query")}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}

/**
 * The fields of `records` and, for each asked id that has a record, its value at each asked
 * column. An asked column that is not a field is an InvalidInputError listing the fields.
 */
export function recordColumns(
  records: ReadonlyMap<string, RecordLike>,
  query: RecordColumnsQuery,
): { fields: RecordField[]; values: Record<string, Record<string, FieldValue>> } {
  const fields = discoverFields(records.values());
  checkFields(
    "columns",
    query.columns,
    fields.map((f) => f.path),
  );
  return { fields, values: columnValues(records, query) };
}

/** For each asked id (in asked order) found in `records`, its value at each asked column. */
export function columnValues(
  records: ReadonlyMap<string, RecordLike>,
  query: RecordColumnsQuery,
): Record<string, Record<string, FieldValue>> {
  if (query.columns.length === 0) return {};
  // fromEntries defines own keys, so an id such as "__proto__" is a key like any other.
  const rows: Array<[string, Record<string, FieldValue>]> = [];
  for (const id of query.id) {
    const record = records.get(id);
    if (record)
      rows.push([id, Object.fromEntries(query.columns.map((c) => [c, fieldValue(record, c)]))]);
  }
  return Object.fromEntries(rows);
}
