// The summary index's row layout: one typed column per summary field (lists and maps as JSON
// columns), plus the keys the table sorts by (natural id order, search text, delivered bucket) and
// the tags its multi-valued filters and the health's counts use (summary_tags: mask reasons,
// reason codes and titles, status codes, error categories, fallbacks, self-calibrated models).
// A row read back is validated against the contract's schema. Not responsible for SQL statements
// (./rows, ./sql) nor for the run-level severity (./run-severity).
import { rolloutSummarySchema, type RolloutSummary } from "@/lib/schema";
import type { IndexedSummary } from "@/lib/rollout";
import { deliveredBucket, maskReasonKeys } from "@/lib/view";
import { naturalKey, tieKey } from "./natural-key";

type Json = "json";
type Bool = "bool";
/** Summary fields stored as they are (text, numbers), as 0/1, or as JSON text. */
const FIELDS: Array<[keyof RolloutSummary, "TEXT" | "REAL" | "INTEGER" | Json | Bool]> = [
  ["source", "TEXT"],
  ["profile", "TEXT"],
  ["mask_sample", "bool"],
  ["mask_reasons", "json"],
  ["error", "TEXT"],
  ["metrics", "json"],
  ["n_calls", "REAL"],
  ["chains", "REAL"],
  ["roots", "REAL"],
  ["delivered_fraction", "REAL"],
  ["quarantined", "REAL"],
  ["side_calls", "REAL"],
  ["side_call_reasons", "json"],
  ["self_calibrated_models", "json"],
  ["fallbacks", "json"],
  ["torn_tail", "bool"],
  ["dangling_intents", "INTEGER"],
  ["unreadable", "bool"],
  ["newer_schema", "bool"],
  ["other_profile_disagrees", "bool"],
  ["status_codes", "json"],
  ["error_categories", "json"],
  ["failed_calls", "INTEGER"],
  ["lost_calls", "INTEGER"],
  ["cut_short", "TEXT"],
  ["cut_short_call", "json"],
  ["main_model", "TEXT"],
  ["oov_tokens", "INTEGER"],
  ["expert_fallback_fraction", "REAL"],
  ["expert_routes", "json"],
  ["lifecycle", "json"],
  ["has_capture", "bool"],
  ["severity", "TEXT"],
  ["severity_reasons", "json"],
  ["reward", "REAL"],
  ["step", "INTEGER"],
  ["bytes", "INTEGER"],
  ["ledger", "json"],
  ["splice", "json"],
];

/** Columns derived for queries: natural order, its tie-break, search text, the side-call counts. */
const DERIVED: Array<[string, string]> = [
  ["nat", "TEXT NOT NULL"],
  ["tie", "TEXT NOT NULL"],
  ["search", "TEXT NOT NULL"],
  ["delivered_bucket", "TEXT"],
  ["side_pattern", "INTEGER NOT NULL"],
  ["side_self", "INTEGER NOT NULL"],
];

const sqlType = (t: string) => (t === "json" ? "TEXT" : t === "bool" ? "INTEGER" : t);

/** Every column of the summaries table, in order. */
export const SUMMARY_COLUMNS = [
  "id",
  "key",
  ...FIELDS.map(([name]) => name),
  ...DERIVED.map(([name]) => name),
];

export const CREATE_SUMMARIES = `CREATE TABLE IF NOT EXISTS summaries (id TEXT PRIMARY KEY, key TEXT NOT NULL, ${[
  ...FIELDS.map(([name, t]) => `${name} ${sqlType(t)}`),
  ...DERIVED.map(([name, t]) => `${name} ${t}`),
].join(", ")})`;

/** Indexes for the table's sorts (both directions where a column often sorts) and filters. */
export const CREATE_INDEXES = [
  "CREATE INDEX IF NOT EXISTS s_nat ON summaries (nat, tie)",
  "CREATE INDEX IF NOT EXISTS s_reward_a ON summaries (ifnull(reward, 9e999), nat, tie)",
  "CREATE INDEX IF NOT EXISTS s_reward_d ON summaries (ifnull(-reward, 9e999), nat, tie)",
  "CREATE INDEX IF NOT EXISTS s_step ON summaries (ifnull(step, 9e999), nat, tie)",
  "CREATE INDEX IF NOT EXISTS s_model ON summaries (main_model)",
];

export const CREATE_TAGS = [
  "CREATE TABLE IF NOT EXISTS summary_tags (id TEXT NOT NULL, tag TEXT NOT NULL, n REAL NOT NULL, PRIMARY KEY (id, tag)) WITHOUT ROWID",
  "CREATE INDEX IF NOT EXISTS t_tag ON summary_tags (tag, id)",
];

/** A row as written: the summary (with its search text, when it has some) and its key. */
export interface SummaryRow {
  summary: IndexedSummary;
  key: string;
  /** False when the rollout is known to have no row yet (no old tags to delete). */
  replaces?: boolean;
}

/** A record-only row made where its record was read (./record-range): SUMMARY_COLUMNS' values. */
export interface MadeRow {
  id: string;
  made: { key: string; values: unknown[]; tags: Array<[string, number]> };
  replaces?: boolean;
}

/** The rollout a row to write is of. */
export const idOfRow = (r: SummaryRow | MadeRow): string =>
  "made" in r ? r.id : r.summary.rollout_id;

/** The tag prefixes: one letter and a colon, then the value. */
export const TAG = {
  reason: "r:",
  maskReason: "m:",
  title: "t:",
  status: "s:",
  errorCategory: "e:",
  fallback: "f:",
  selfCalibrated: "c:",
} as const;

/** The row of `summary` under `key`: the insert's values in SUMMARY_COLUMNS order. */
export function rowOf(summary: RolloutSummary, key: string): unknown[] {
  const row: unknown[] = [summary.rollout_id, key];
  for (const [name, t] of FIELDS) {
    const v = summary[name];
    row.push(t === "json" ? jsonText(v) : t === "bool" ? (v ? 1 : 0) : v);
  }
  const d = summary.delivered_fraction;
  row.push(
    naturalKey(summary.rollout_id),
    tieKey(summary.rollout_id),
    `${summary.rollout_id}\n${summary.error ?? ""}\n${summary.cut_short ?? ""}`.toLowerCase(),
    d === null ? null : deliveredBucket(d),
    summary.side_call_reasons.pattern,
    summary.side_call_reasons.self_calibration,
  );
  return row;
}

/**
 * JSON.stringify of a column's value, with its common empty values written without it: most of a
 * record-only row's 14 JSON columns are null, [] or {}. A small gain, measured: rowOf over 200,000
 * record-only summaries 1.20 -> 1.05 s; what is left is the non-empty objects and the loop.
 */
function jsonText(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return v.length === 0 ? "[]" : JSON.stringify(v);
  if (typeof v === "object" && isEmpty(v)) return "{}";
  return JSON.stringify(v);
}

function isEmpty(o: object): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return false;
  return Object.getPrototypeOf(o) === Object.prototype;
}

/** The summary's tags with their weights (a count, or 1). */
export function tagsOf(s: RolloutSummary): Array<[tag: string, n: number]> {
  const out = new Map<string, number>();
  const add = (tag: string, n = 1) => out.set(tag, (out.get(tag) ?? 0) + n);
  for (const r of s.mask_reasons) out.set(TAG.reason + r, 1);
  for (const r of s.severity_reasons) {
    out.set(TAG.reason + r.code, 1);
    if (r.code !== "pending") add(TAG.title + r.title);
  }
  for (const r of maskReasonKeys(s)) add(TAG.maskReason + r);
  for (const [k, n] of Object.entries(s.status_codes)) add(TAG.status + k, n);
  for (const [k, n] of Object.entries(s.error_categories)) add(TAG.errorCategory + k, n);
  for (const [k, n] of Object.entries(s.fallbacks)) if (n) add(TAG.fallback + k, n);
  for (const [k, n] of Object.entries(s.self_calibrated_models)) add(TAG.selfCalibrated + k, n);
  return [...out];
}

/** The columns a summary is read back from (the SELECT list). */
export const SUMMARY_SELECT = ["id", ...FIELDS.map(([name]) => name)].join(", ");

/** The summary a row holds, or null when a column is damaged (not JSON, a wrong type). */
export function summaryOfRow(row: Record<string, unknown>): RolloutSummary | null {
  const out: Record<string, unknown> = { rollout_id: row.id };
  try {
    for (const [name, t] of FIELDS) {
      const v = row[name];
      out[name] =
        t === "json" ? JSON.parse(String(v)) : t === "bool" ? v === 1 || v === 1n : (v ?? null);
    }
  } catch {
    return null;
  }
  const parsed = rolloutSummarySchema.safeParse(out);
  return parsed.success ? parsed.data : null;
}

/**
 * Rows a query can tell are damaged without reading them into JavaScript: a JSON column that is not
 * JSON, a number that is not one, a wrong class. Checked once per process on the first open.
 */
export const DAMAGED_ROW_SQL = `${FIELDS.filter(([, t]) => t === "json")
  .map(([name]) => `NOT json_valid(${name})`)
  .join(" OR ")} OR ${FIELDS.filter(([, t]) => t === "REAL" || t === "INTEGER")
  .map(([name]) => `(${name} IS NOT NULL AND typeof(${name}) NOT IN ('integer', 'real'))`)
  .join(" OR ")} OR severity NOT IN ('trained', 'trained_with_warnings', 'masked', 'pending')`;
