// A run's groups over its records in memory: the reference ./groups-sql's answer is checked
// against (lib/index/groups-sql.test). Test code only: the product groups in SQL.
import type { FieldValue, RolloutGroup, RunGroups, StepSignal } from "@/lib/schema/api-groups";
import {
  ADVANTAGE_SOURCE,
  DEFAULT_GROUP_FIELD,
  EPSILON,
  groupOf,
  type AdvantageOptions,
  type GroupsQuery,
  type Member,
} from "@/lib/runs/groups";
import { checkFields, discoverFields, fieldValue, type RecordLike } from "@/lib/runs/record-fields";
import { compareIds } from "@/lib/store/rollout-id";

const intOrNull = (v: FieldValue) => (typeof v === "number" && Number.isInteger(v) ? v : null);
const byStep = (a: number | null, b: number | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a - b;
/** Numbers before strings before booleans; numbers numerically, strings naturally. */
function byKey(a: FieldValue, b: FieldValue): number {
  const rank = (v: FieldValue) => (typeof v === "number" ? 0 : typeof v === "string" ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === "number" && typeof b === "number") return a - b;
  return compareIds(String(a), String(b));
}

/** The records grouped by (step, value of `by`), in step then key order; records without a value are counted. */
export function groupRollouts(
  records: ReadonlyMap<string, RecordLike>,
  by: string,
  opts: AdvantageOptions,
): { groups: RolloutGroup[]; ungrouped: number } {
  const buckets = new Map<string, { key: FieldValue; step: number | null; members: Member[] }>();
  let ungrouped = 0;
  for (const [id, record] of records) {
    const key = fieldValue(record, by);
    if (key === null) {
      ungrouped++;
      continue;
    }
    const step = intOrNull(fieldValue(record, "step"));
    const k = JSON.stringify([step, key]);
    let b = buckets.get(k);
    if (!b) buckets.set(k, (b = { key, step, members: [] }));
    const reward = fieldValue(record, "reward");
    b.members.push({
      rollout_id: id,
      reward: typeof reward === "number" ? reward : null,
      masked: record.mask_sample === true,
    });
  }
  const groups = [...buckets.values()]
    .map((b) => groupOf(b.key, b.step, b.members, opts))
    .sort((a, b) => byStep(a.step, b.step) || byKey(a.key, b.key));
  return { groups, ungrouped };
}

/** Groups and groups without signal per step, in step order (null step last). */
export function signalPerStep(groups: readonly RolloutGroup[]): StepSignal[] {
  const out = new Map<number | null, StepSignal>();
  for (const g of groups) {
    let s = out.get(g.step);
    if (!s) out.set(g.step, (s = { step: g.step, groups: 0, no_signal: 0, no_rewards: 0 }));
    s.groups++;
    if (g.no_signal) s.no_signal++;
    if (g.members.every((m) => m.reward === null)) s.no_rewards++;
  }
  return [...out.values()].sort((a, b) => byStep(a.step, b.step));
}

/**
 * The run's groups under `q`: by `q.by` (a scalar field of the records, else a 400 listing them),
 * by default the task index when the records carry one (else no groups and `by: null`).
 */
export function runGroups(records: ReadonlyMap<string, RecordLike>, q: GroupsQuery): RunGroups {
  const fields = discoverFields(records.values()).map((f) => f.path);
  if (q.by !== undefined) checkFields("by", [q.by], fields);
  const by = q.by ?? (fields.includes(DEFAULT_GROUP_FIELD) ? DEFAULT_GROUP_FIELD : null);
  const opts = { baseline: q.baseline, normalize: q.normalize };
  const { groups, ungrouped } = by
    ? groupRollouts(records, by, opts)
    : { groups: [], ungrouped: records.size };
  const shown = groups.filter(
    (g) =>
      (q.step === undefined || g.step === q.step) &&
      (q.signal === undefined || g.no_signal === (q.signal === "none")),
  );
  return {
    by,
    fields,
    definition: { ...opts, epsilon: EPSILON, source: ADVANTAGE_SOURCE },
    total: shown.length,
    offset: q.offset,
    groups: shown.slice(q.offset, q.offset + q.limit),
    per_step: signalPerStep(groups),
    max_group_size: groups.reduce((a, g) => Math.max(a, g.n), 0),
    ungrouped,
    records: records.size,
    logged: null,
    logged_error: null,
  };
}
