// The table's query over summaries in memory: the reference the served SQL (lib/index/sql,
// lib/health/run-health) is checked against row for row, and the CSV as one string. Test code only:
// the product filters, sorts and pages in SQL and streams its CSV a line at a time.
import type { ExportRow, RolloutSummary } from "@/lib/schema";
import type { RolloutNeighbors } from "@/lib/schema/api-progress";
import {
  ALERT_FILTERS,
  BUCKET_FILTERS,
  BUCKET_KEYS,
  csvLine,
  EXPORT_COLUMNS,
  hasReason,
  type RolloutQuery,
  type SortKey,
} from "@/lib/index/query";
import { compareIds } from "@/lib/store/rollout-id";
import { SEVERITY_ORDER } from "@/lib/severity/palette";
import { callsMade } from "@/lib/view/calls-made";

function matches(s: RolloutSummary, q: RolloutQuery, text: string | null): boolean {
  if (q.verdict === "masked" && s.severity !== "masked") return false;
  if (q.verdict === "trained" && s.severity !== "trained" && s.severity !== "trained_with_warnings")
    return false;
  if (q.severity && s.severity !== q.severity) return false;
  if (q.reason && !hasReason(s, q.reason)) return false;
  if (q.status && !(q.status in s.status_codes)) return false;
  if (q.step !== undefined && s.step !== q.step) return false;
  if (q.cut_short && !s.cut_short) return false;
  if (q.alert && !ALERT_FILTERS[q.alert](s)) return false;
  for (const k of BUCKET_KEYS) {
    const v = q[k];
    if (v !== undefined && !BUCKET_FILTERS[k](s, v)) return false;
  }
  if (
    text &&
    !`${s.rollout_id}\n${s.error ?? ""}\n${s.cut_short ?? ""}`.toLowerCase().includes(text)
  )
    return false;
  return true;
}

function value(s: RolloutSummary, key: SortKey): number | string | null {
  if (key === "mask_sample") return s.mask_sample ? 1 : 0;
  if (key === "severity") return SEVERITY_ORDER.indexOf(s.severity);
  if (key === "n_calls") return callsMade(s); // the "Calls made" column's value
  return s[key];
}

/** The table's order under `q` (nulls last in either direction); ties keep rollout id order. */
function orderOf(q: RolloutQuery): (a: RolloutSummary, b: RolloutSummary) => number {
  const sign = q.dir === "asc" ? 1 : -1;
  return (a, b) => {
    const va = value(a, q.sort),
      vb = value(b, q.sort);
    if (va === null || vb === null)
      return va === vb ? compareIds(a.rollout_id, b.rollout_id) : va === null ? 1 : -1;
    const c = typeof va === "string" ? compareIds(va, vb as string) : va - (vb as number);
    return c !== 0 ? sign * c : compareIds(a.rollout_id, b.rollout_id);
  };
}

/** Filtered and sorted (nulls last in either direction); ties keep rollout id order. */
export function selectRollouts(all: readonly RolloutSummary[], q: RolloutQuery): RolloutSummary[] {
  const text = q.q ? q.q.toLowerCase() : null;
  return all.filter((s) => matches(s, q, text)).sort(orderOf(q));
}

/**
 * The rollouts just before and after `rolloutId` in selectRollouts' order, in one pass with no
 * sorted copy. A rollout outside the filters still has neighbours: those it would sit between.
 * Without a summary for it (not indexed yet) it has none.
 */
export function neighborsOf(
  all: readonly RolloutSummary[],
  rolloutId: string,
  q: RolloutQuery,
): RolloutNeighbors {
  const text = q.q ? q.q.toLowerCase() : null;
  const order = orderOf(q);
  const self = all.find((s) => s.rollout_id === rolloutId);
  let prev: RolloutSummary | null = null,
    next: RolloutSummary | null = null;
  let before = 0,
    total = 0;
  for (const s of all) {
    if (!matches(s, q, text)) continue;
    total++;
    if (!self || s === self) continue;
    if (order(s, self) < 0) {
      before++;
      if (!prev || order(s, prev) > 0) prev = s;
    } else if (!next || order(s, next) < 0) next = s;
  }
  const index = self && matches(self, q, text) ? before : null;
  return { prev: prev?.rollout_id ?? null, next: next?.rollout_id ?? null, index, total };
}

/** RFC 4180 CSV of the rows under the header line. */
export function toCsv(rows: readonly ExportRow[]): string {
  return `${EXPORT_COLUMNS.join(",")}\n${rows.map(csvLine).join("")}`;
}
