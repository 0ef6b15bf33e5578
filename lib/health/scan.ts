// One pass over the summary index's rows for a run's health: a single GROUP BY per range
// of rowids folds every count, sum and distribution the health, its alerts, the lifecycle alert and
// the notes need (one scan instead of some twenty), then the first rollouts of each flagged kind
// that has any. Written as a generator that yields between ranges, so a caller can run it at once
// (tests, the in-memory fallback) or give the event loop its turn between ranges. Reads only.
import "server-only";
import type Database from "better-sqlite3";
import {
  TAG,
  NO_CAPTURE_SQL,
  OTHER_MODEL_SQL,
  SERVED_MASKED_SQL,
  SERVED_SEVERITY_SQL,
  TRAINER_SQL,
} from "@/lib/index";
import { EXPERT_FALLBACK_ALERT_THRESHOLD, SAMPLE } from "./health";

/** Rows per range: each of a range's statements takes some 5–15 ms (other requests wait no longer). */
export const CHUNK_ROWS = 10_000;

const OTHER = `(s.id IN (SELECT id FROM summary_tags WHERE tag = '${TAG.reason}other_model_main') OR ${OTHER_MODEL_SQL})`;

/** The flagged kinds (their counts in the pass, their first rollouts after it). */
export const FLAGS = {
  cut_short: "s.cut_short_call != 'null'",
  other_model_main: OTHER,
  masked_fraction: SERVED_MASKED_SQL,
  dangling_intents: "s.dangling_intents > 0",
  unreadable: "s.unreadable = 1",
  newer_schema: "s.newer_schema = 1",
  oov: "ifnull(s.oov_tokens, 0) > 0",
  expert_fallback: `ifnull(s.expert_fallback_fraction, 0) >= ${EXPERT_FALLBACK_ALERT_THRESHOLD}`,
  /** A prompt that re-rendered an earlier turn (the splice alert, docs/ledger.md). */
  rerendered: "ifnull(s.splice ->> '$.rerendered', 0) > 0",
} as const;
export type Flag = keyof typeof FLAGS;

/** Summed per group; `group` keys are the distributions the charts and per-step series need. */
const BASE_SUMS = {
  c: "COUNT(*)",
  from_store: "SUM(s.source = 'store')",
  quarantined: "SUM(s.quarantined)",
  with_q: "SUM(s.quarantined > 0)",
  with_capture: "SUM(s.has_capture)",
  reward_sum: "SUM(s.reward)",
  reward_n: "COUNT(s.reward)",
  delivered_sum: "SUM(s.delivered_fraction)",
  delivered_n: "COUNT(s.delivered_fraction)",
  calls_sum: "SUM(s.n_calls)",
  calls_n: "COUNT(s.n_calls)",
  side_calls: "SUM(s.side_calls)",
  failed_calls: "SUM(s.failed_calls)",
  pattern: "SUM(s.side_pattern)",
  has_pattern: "SUM(s.side_pattern != 0)",
  self: "SUM(s.side_self)",
  has_self: "SUM(s.side_self != 0)",
  found: "SUM(s.side_self > 0)",
  other: `SUM(${OTHER_MODEL_SQL})`,
  nocap: `SUM(${NO_CAPTURE_SQL})`,
  tdiff: `SUM(${TRAINER_SQL})`,
  differ: "SUM(s.other_profile_disagrees)",
  oov_tokens: `SUM(CASE WHEN ${FLAGS.oov} THEN s.oov_tokens END)`,
  expert_expected: "SUM(s.expert_routes ->> '$.expected')",
  expert_fallback: "SUM(s.expert_routes ->> '$.fallback')",
  // Read from a store with calls, and no call of the main chain carries routes.
  expert_none:
    "SUM(s.source = 'store' AND s.n_calls > 0 AND (s.expert_routes ->> '$.expected') IS NULL)",
  splice_calls: "SUM(s.splice ->> '$.calls')",
  splice_rerendered: "SUM(s.splice ->> '$.rerendered')",
};
export type SumKey = keyof typeof BASE_SUMS | `f_${Flag}`;
const SUMS: Record<string, string> = {
  ...BASE_SUMS,
  ...Object.fromEntries(Object.entries(FLAGS).map(([k, sql]) => [`f_${k}`, `SUM(${sql})`])),
};
/** Every summed column's name (a group's sums add up under these). */
export const SUM_KEYS = Object.keys(SUMS) as SumKey[];
/** Per step and served severity: the sums; per distribution value: the rows (few groups each). */
const KEYS = { step: "s.step", sev: SERVED_SEVERITY_SQL };
const DIST_KEYS = {
  n_calls: "s.n_calls",
  bucket: "s.delivered_bucket",
  chains: "s.chains",
  roots: "s.roots",
  dprofile: "CASE WHEN s.other_profile_disagrees = 1 THEN s.profile END",
};
const DIST_SUMS = { c: "COUNT(*)" };

const groupSql = (keys: Record<string, string>, sums: Record<string, string>) =>
  `SELECT ${[
    ...Object.entries(keys).map(([k, sql]) => `${sql} AS ${k}`),
    ...Object.entries(sums).map(([k, sql]) => `${sql} AS ${k}`),
  ].join(", ")} FROM summaries s WHERE s.rowid > @lo AND s.rowid <= @hi GROUP BY ${Object.keys(keys)
    .map((_, i) => i + 1)
    .join(", ")}`;

/** One group of rows: its keys and sums (nulls where SQLite's SUM saw none). */
export type Group = Record<string, number | string | null>;

export interface ScanResult {
  /** Per step and served severity. */
  groups: Group[];
  /** Per value of the distributions (calls, delivered bucket, chains, roots, profile). */
  dists: Group[];
  /** Each flagged kind's first rollouts in natural id order (none for a kind no row has). */
  ids: Record<Flag, string[]>;
  /** Tag family counts by prefix (rows, or the tags' weights summed). */
  tags: Map<string, Map<string, number>>;
}

/** The tag families the health and notes count, and whether their weights are summed. */
const TAG_FAMILIES: Array<[string, boolean]> = [
  [TAG.title, true],
  [TAG.maskReason, false],
  [TAG.fallback, true],
  [TAG.status, true],
  [TAG.errorCategory, true],
  [TAG.selfCalibrated, true],
];

function tagCounts(db: Database.Database, prefix: string, weighted: boolean): Map<string, number> {
  const rows = db
    .prepare(
      `SELECT substr(tag, ${prefix.length + 1}) AS k, ${weighted ? "SUM(n)" : "COUNT(*)"} AS c FROM summary_tags WHERE tag >= ? AND tag < ? GROUP BY tag`,
    )
    .all(prefix, prefix.slice(0, -1) + ";") as Array<{ k: string; c: number }>;
  return new Map(rows.map((r) => [r.k, r.c]));
}

/** Groups of every range merged by their keys (sums added). */
function mergeGroups(into: Map<string, Group>, rows: Group[], keys: string[]): void {
  for (const r of rows) {
    const key = JSON.stringify(keys.map((k) => r[k]));
    const had = into.get(key);
    if (!had) {
      into.set(key, r);
      continue;
    }
    for (const k of Object.keys(r)) {
      if (keys.includes(k)) continue;
      const v = r[k];
      if (v === null || v === undefined) continue;
      const was = had[k];
      had[k] = was === null || was === undefined ? v : Number(was) + Number(v);
    }
  }
}

type Ranked = { id: string; nat: string; tie: string };
const byNat = (a: Ranked, b: Ranked) =>
  Buffer.compare(Buffer.from(a.nat), Buffer.from(b.nat)) ||
  Buffer.compare(Buffer.from(a.tie), Buffer.from(b.tie));

/**
 * The pass: yields between ranges (and between the tag families' statements). `params` are the
 * run's facts (factParams). Every statement runs on `db` as it is: the caller holds a read
 * transaction when the rows may change between yields.
 */
export function* healthScan(
  db: Database.Database,
  params: object,
  chunk = CHUNK_ROWS,
): Generator<void, ScanResult> {
  const span = db.prepare("SELECT min(rowid) AS lo, max(rowid) AS hi FROM summaries").get() as {
    lo: number | null;
    hi: number | null;
  };
  const ranges: Array<{ lo: number; hi: number }> = [];
  if (span.lo !== null && span.hi !== null)
    for (let lo = span.lo - 1; lo < span.hi; lo += chunk)
      ranges.push({ lo, hi: Math.min(span.hi, lo + chunk) });
  yield; // the first read (the snapshot's moment) done, the statements below are the work
  const merged = new Map<string, Group>();
  const dists = new Map<string, Group>();
  const group = db.prepare(groupSql(KEYS, SUMS));
  const dist = db.prepare(groupSql(DIST_KEYS, DIST_SUMS));
  for (const r of ranges) {
    mergeGroups(merged, group.all({ ...params, ...r }) as Group[], Object.keys(KEYS));
    yield;
    mergeGroups(dists, dist.all({ ...params, ...r }) as Group[], Object.keys(DIST_KEYS));
    yield;
  }
  const groups = [...merged.values()];
  const ids = {} as Record<Flag, string[]>;
  for (const flag of Object.keys(FLAGS) as Flag[]) {
    ids[flag] = [];
    const count = groups.reduce((n, g) => n + Number(g[`f_${flag}`] ?? 0), 0);
    if (count === 0) continue;
    const rows = groups.reduce((n, g) => n + Number(g.c ?? 0), 0);
    // A common kind's first rollouts are near the start of the natural order: walking it reads
    // some SAMPLE × rows / count rows, a range's worth or fewer (one statement, no ranges).
    if ((SAMPLE * rows) / count <= chunk) {
      ids[flag] = db
        .prepare(
          `SELECT s.id FROM summaries s WHERE ${FLAGS[flag]} ORDER BY s.nat, s.tie LIMIT ${SAMPLE}`,
        )
        .pluck()
        .all(params) as string[];
      yield;
      continue;
    }
    // `+` keeps the planner on the rowid range (the natural-order index would walk every row).
    const first = db.prepare(
      `SELECT s.id, s.nat, s.tie FROM summaries s WHERE s.rowid > @lo AND s.rowid <= @hi AND ${FLAGS[flag]} ORDER BY +s.nat, +s.tie LIMIT ${SAMPLE}`,
    );
    let best: Ranked[] = [];
    for (const r of ranges) {
      best = [...best, ...(first.all({ ...params, ...r }) as Ranked[])]
        .sort(byNat)
        .slice(0, SAMPLE);
      yield;
    }
    ids[flag] = best.map((b) => b.id);
  }
  const tags = new Map<string, Map<string, number>>();
  for (const [prefix, weighted] of TAG_FAMILIES) {
    tags.set(prefix, tagCounts(db, prefix, weighted));
    yield;
  }
  return { groups, dists: [...dists.values()], ids, tags };
}

/** Runs the pass to its end at once. */
export function scanNow(db: Database.Database, params: object): ScanResult {
  const it = healthScan(db, params);
  for (;;) {
    const step = it.next();
    if (step.done) return step.value;
  }
}
