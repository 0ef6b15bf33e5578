// runGroups (./groups) over the summary index's records table, so no request holds a run's records:
// each record's (step, grouping value, reward, mask) and each group's size and signal are computed
// in SQL into temp tables (kept on the connection per rollouts.jsonl version and field), groups
// are paged with LIMIT/OFFSET in runGroups' order, and only the page's members are read to compute
// their advantages (./groups grpoAdvantages). Not responsible for syncing the records table.
import "server-only";
import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import type { FieldValue, RolloutGroup, RunGroups, StepSignal } from "@/lib/schema";
import {
  ADVANTAGE_SOURCE,
  DEFAULT_GROUP_FIELD,
  EPSILON,
  groupOf,
  type AdvantageOptions,
  type GroupsQuery,
  type Member,
} from "@/lib/runs";
import { naturalKey, tieKey } from "./natural-key";
import { meta } from "./record-rows";
import { anyScalarAt, checkFieldsSql, jsonPath, sampleFields } from "./records-sql";

/** Kind of a grouping value, in runGroups' key order: numbers, then strings, then booleans. */
const KIND = `CASE json_type(record, @path) WHEN 'integer' THEN 0 WHEN 'real' THEN 0
  WHEN 'text' THEN 1 WHEN 'true' THEN 2 WHEN 'false' THEN 2 END`;

/** One row per record with a value at the field: fieldValue's reading of step, reward, mask. */
const MEMBER_ROWS = `SELECT id, step, kind, v, reward, masked FROM (SELECT id,
  CASE json_type(record, '$.step') WHEN 'integer' THEN json_extract(record, '$.step') END AS step,
  ${KIND} AS kind,
  json_extract(record, @path) AS v,
  CASE WHEN json_type(record, '$.reward') IN ('integer', 'real')
    THEN json_extract(record, '$.reward') END AS reward,
  json_type(record, '$.mask_sample') IS 'true' AS masked
  FROM records) WHERE kind IS NOT NULL`;

/** Per group: size, and no signal when fewer than two voting rewards or all of them equal. */
const GROUP_ROWS = (m: string) => `SELECT step, kind, v, count(*) AS n,
  (sum(reward IS NOT NULL) > 0 AND (sum(NOT masked AND reward IS NOT NULL) < 2
    OR min(CASE WHEN NOT masked THEN reward END) = max(CASE WHEN NOT masked THEN reward END)))
    AS no_signal,
  sum(reward IS NOT NULL) = 0 AS unrewarded,
  sum(NOT masked AND reward IS NOT NULL) AS voters,
  CASE kind WHEN 1 THEN rl_natural_key(v) END AS nk, CASE kind WHEN 1 THEN rl_tie_key(v) END AS tk
  FROM ${m} GROUP BY step, kind, v`;

/** runGroups' order: step (null last), then numbers numerically, strings naturally, false, true. */
const GROUP_ORDER = "step IS NULL, step, kind, CASE kind WHEN 0 THEN v END, nk, tk, v";

interface Tables {
  members: string;
  groups: string;
}

/**
 * The temp tables of `by` at the records table's current version: built on first use on this
 * connection (a re-opened database has none), replacing those of another field or version.
 */
export function groupTables(db: Database.Database, by: string): Tables {
  const version = meta(db, "records_version") ?? "-";
  const h = createHash("sha1").update(`${version}\n${by}`).digest("hex").slice(0, 16);
  const t = { members: `grp_m_${h}`, groups: `grp_g_${h}` };
  const have = db
    .prepare(
      "SELECT name FROM temp.sqlite_master WHERE type = 'table' AND name LIKE 'grp\\_%' ESCAPE '\\'",
    )
    .pluck()
    .all() as string[];
  if (have.includes(t.members) && have.includes(t.groups)) return t;
  db.function("rl_natural_key", { deterministic: true }, (v: unknown) => naturalKey(String(v)));
  db.function("rl_tie_key", { deterministic: true }, (v: unknown) => tieKey(String(v)));
  db.transaction(() => {
    for (const name of have) db.exec(`DROP TABLE temp.${name}`);
    db.exec(
      `CREATE TEMP TABLE ${t.members} (id TEXT, step INTEGER, kind INTEGER, v, reward REAL, masked INTEGER)`,
    );
    db.prepare(`INSERT INTO ${t.members} ${MEMBER_ROWS}`).run({ path: jsonPath(by) });
    db.exec(`CREATE INDEX temp.${t.members}_key ON ${t.members} (kind, v, step)`);
    db.exec(`CREATE TEMP TABLE ${t.groups} AS ${GROUP_ROWS(t.members)}`);
  })();
  return t;
}

interface GroupRow {
  step: number | null;
  kind: number;
  v: string | number;
  n: number;
  no_signal: number;
  unrewarded: number;
}

const keyOf = (g: GroupRow): FieldValue => (g.kind === 2 ? g.v === 1 : g.v);

/** The page's groups, each from its own members' rows only. */
function pageGroups(db: Database.Database, t: Tables, rows: GroupRow[], opts: AdvantageOptions) {
  const members = db.prepare(
    `SELECT id, reward, masked FROM ${t.members} WHERE kind = ? AND v = ? AND step IS ?`,
  );
  return rows.map((g) => {
    const list = members.all(g.kind, g.v, g.step) as Array<{
      id: string;
      reward: number | null;
      masked: number;
    }>;
    const ms: Member[] = list.map((m) => ({
      rollout_id: m.id,
      reward: m.reward,
      masked: m.masked === 1,
    }));
    return groupOf(keyOf(g), g.step, ms, opts);
  });
}

/** runGroups over the records table: the same body, computed in SQL but for the page's advantages. */
export function runGroupsSql(db: Database.Database, q: GroupsQuery): RunGroups {
  const fields = sampleFields(db).map((f) => f.path);
  if (q.by !== undefined) checkFieldsSql(db, "by", [q.by], fields);
  const hasTask = fields.includes(DEFAULT_GROUP_FIELD) || anyScalarAt(db, DEFAULT_GROUP_FIELD);
  const by = q.by ?? (hasTask ? DEFAULT_GROUP_FIELD : null);
  const opts = { baseline: q.baseline, normalize: q.normalize };
  const records = db.prepare("SELECT count(*) FROM records").pluck().get() as number;
  const definition = { ...opts, epsilon: EPSILON, source: ADVANTAGE_SOURCE };
  if (by === null)
    return {
      ...{ by, fields, definition, total: 0, offset: q.offset, groups: [], per_step: [] },
      ...{ max_group_size: 0, ungrouped: records, records, logged: null, logged_error: null },
    };
  const t = groupTables(db, by);
  const where = "(@step IS NULL OR step = @step) AND (@none IS NULL OR no_signal = @none)";
  const filter = {
    step: q.step ?? null,
    none: q.signal === undefined ? null : q.signal === "none" ? 1 : 0,
  };
  const total = db.prepare(`SELECT count(*) FROM ${t.groups} WHERE ${where}`).pluck().get(filter);
  const page = db
    .prepare(
      `SELECT * FROM ${t.groups} WHERE ${where} ORDER BY ${GROUP_ORDER} LIMIT @limit OFFSET @offset`,
    )
    .all({ ...filter, limit: q.limit, offset: q.offset }) as GroupRow[];
  const per_step = db
    .prepare(
      `SELECT step, count(*) AS groups, sum(no_signal) AS no_signal, sum(unrewarded) AS no_rewards
       FROM ${t.groups}
       GROUP BY step ORDER BY step IS NULL, step`,
    )
    .all() as StepSignal[];
  const sizes = db
    .prepare(`SELECT coalesce(max(n), 0) AS max, coalesce(sum(n), 0) AS grouped FROM ${t.groups}`)
    .get() as { max: number; grouped: number };
  return {
    ...{ by, fields, definition, total: total as number, offset: q.offset },
    groups: pageGroups(db, t, page, opts),
    per_step,
    max_group_size: sizes.max,
    ungrouped: records - sizes.grouped,
    records,
    logged: null,
    logged_error: null,
  };
}

/**
 * The GRPO group (by task and step, the groups route's default) holding one rollout, its members'
 * advantages computed as the groups route computes them under `rule`; null when the run has no
 * task field or the rollout no record.
 */
export function rolloutGroupSql(
  db: Database.Database,
  rolloutId: string,
  rule: AdvantageOptions,
): RolloutGroup | null {
  const fields = sampleFields(db).map((f) => f.path);
  if (!fields.includes(DEFAULT_GROUP_FIELD) && !anyScalarAt(db, DEFAULT_GROUP_FIELD)) return null;
  const t = groupTables(db, DEFAULT_GROUP_FIELD);
  const at = db.prepare(`SELECT step, kind, v FROM ${t.members} WHERE id = ?`).get(rolloutId) as
    Pick<GroupRow, "step" | "kind" | "v"> | undefined;
  if (!at) return null;
  const row = db
    .prepare(`SELECT * FROM ${t.groups} WHERE kind = ? AND v = ? AND step IS ?`)
    .get(at.kind, at.v, at.step) as GroupRow | undefined;
  return row ? (pageGroups(db, t, [row], rule)[0] ?? null) : null;
}
