// A run's health as queries over its summary index (lib/runs/summary-sql's rows): the same report
// lib/health/health.ts computes from summaries in memory — counts, distributions, per-step series,
// alerts with their first rollouts — with the run-level severity applied in SQL. Also the notes and
// the lifecycle alert over the same rows. Reads the database only; the caller caches the result per
// index generation.
import "server-only";
import type Database from "better-sqlite3";
import type { Alert, HealthReport, RolloutSummary, StepPoint } from "@/lib/schema";
import { TAG } from "@/lib/runs/summary-columns";
import {
  factParams,
  NO_CAPTURE_SQL,
  OTHER_MODEL_SQL,
  SERVED_SEVERITY_SQL,
  type RunFacts,
} from "@/lib/runs/summary-sql";
import { countBySeverity, WARNING_TITLES } from "@/lib/severity";
import { alertsOf, counts, SAMPLE, type AlertFacts, type HealthExtra } from "./health";
import { notesFrom, type HealthNote } from "./health-notes";
import { outsideIdsAlertOf } from "./lifecycle-alerts";

type Row = Record<string, number | string | null>;
const num = (v: unknown) => Number(v ?? 0);
const OTHER = `(s.id IN (SELECT id FROM summary_tags WHERE tag = '${TAG.reason}other_model_main') OR ${OTHER_MODEL_SQL})`;
const CUT = "s.cut_short_call != 'null'";

/** A tag family's counts (rows, or the tags' weights summed). */
function tagCounts(db: Database.Database, prefix: string, weighted: boolean): Map<string, number> {
  const rows = db
    .prepare(
      `SELECT substr(tag, ${prefix.length + 1}) AS k, ${weighted ? "SUM(n)" : "COUNT(*)"} AS c FROM summary_tags WHERE tag >= ? AND tag < ? GROUP BY tag`,
    )
    .all(prefix, prefix.slice(0, -1) + ";") as Array<{ k: string; c: number }>;
  return new Map(rows.map((r) => [r.k, r.c]));
}

/** Counts of a column's values (nulls left out), as the charts list them. */
function columnCounts(db: Database.Database, col: string): Map<string, number> {
  const rows = db
    .prepare(
      `SELECT ${col} AS k, COUNT(*) AS c FROM summaries WHERE ${col} IS NOT NULL GROUP BY ${col}`,
    )
    .all() as Array<{ k: number | string; c: number }>;
  return new Map(rows.map((r) => [String(r.k), r.c]));
}

function perStep(db: Database.Database): StepPoint[] {
  const rows = db
    .prepare(
      `SELECT step, COUNT(*) AS rollouts, SUM(severity = 'masked') AS masked, AVG(reward) AS reward_mean,
       AVG(n_calls) AS calls_mean, AVG(delivered_fraction) AS delivered_mean, SUM(side_calls) AS side_calls,
       SUM(quarantined) AS quarantined, SUM(failed_calls) AS failed_calls
       FROM summaries WHERE step IS NOT NULL GROUP BY step ORDER BY step`,
    )
    .all() as Row[];
  return rows.map((r) => ({
    step: num(r.step),
    rollouts: num(r.rollouts),
    masked_fraction: num(r.masked) / num(r.rollouts),
    reward_mean: r.reward_mean === null ? null : num(r.reward_mean),
    calls_mean: num(r.calls_mean),
    delivered_mean: r.delivered_mean === null ? null : num(r.delivered_mean),
    side_calls: num(r.side_calls),
    quarantined: num(r.quarantined),
    failed_calls: num(r.failed_calls),
  }));
}

/** How many rows match `where` and the first few ids in natural order. */
function flaggedBy(db: Database.Database, where: string, p: object) {
  const count = db.prepare(`SELECT COUNT(*) FROM summaries s WHERE ${where}`).pluck().get(p);
  const ids = db
    .prepare(`SELECT s.id FROM summaries s WHERE ${where} ORDER BY s.nat, s.tie LIMIT ${SAMPLE}`)
    .pluck()
    .all(p) as string[];
  return { count: num(count), ids };
}

function alertFacts(db: Database.Database, p: object, rollouts: number): AlertFacts {
  const flagged: AlertFacts["flagged"] = {
    cut_short: flaggedBy(db, CUT, p),
    other_model_main: flaggedBy(db, OTHER, p),
    masked_fraction: flaggedBy(db, "s.severity = 'masked'", p),
    dangling_intents: flaggedBy(db, "s.dangling_intents > 0", p),
    unreadable: flaggedBy(db, "s.unreadable = 1", p),
    newer_schema: flaggedBy(db, "s.newer_schema = 1", p),
    unreadable_records: { count: 0, ids: [] },
  };
  const first = flagged.cut_short.ids[0];
  const call = first
    ? (db.prepare("SELECT cut_short_call FROM summaries WHERE id = ?").pluck().get(first) as string)
    : null;
  const trained = db
    .prepare(
      `SELECT COUNT(*) FROM summaries s WHERE ${CUT} AND ${SERVED_SEVERITY_SQL} = 'trained_with_warnings'`,
    )
    .pluck()
    .get(p);
  const other = flagged.other_model_main.ids[0];
  const model = other
    ? (db.prepare("SELECT main_model FROM summaries WHERE id = ?").pluck().get(other) as
        string | null)
    : null;
  return {
    flagged,
    rollouts,
    cutShort: {
      first: first && call ? { rollout_id: first, cut_short_call: JSON.parse(call) } : null,
      trained: num(trained),
    },
    otherModel: model,
  };
}

/** The run's health over the index's rows (HealthReport, as computeHealth gives it). */
export function healthOfRows(
  db: Database.Database,
  facts: RunFacts,
  extra: HealthExtra = {},
): HealthReport {
  const p = factParams(facts);
  const t = db
    .prepare(
      `SELECT COUNT(*) AS n, SUM(source = 'store') AS from_store, SUM(severity = 'masked') AS masked,
       SUM(quarantined) AS quarantined, SUM(quarantined > 0) AS with_q, AVG(reward) AS reward_mean,
       SUM(side_pattern) AS pattern, SUM(side_pattern != 0) AS has_pattern,
       SUM(side_self) AS self, SUM(side_self != 0) AS has_self,
       SUM(${OTHER_MODEL_SQL}) AS other, SUM(${NO_CAPTURE_SQL}) AS nocap FROM summaries s`,
    )
    .get(p) as Row;
  const n = num(t.n);
  const severity = countBySeverity([]);
  for (const r of db
    .prepare(`SELECT ${SERVED_SEVERITY_SQL} AS k, COUNT(*) AS c FROM summaries s GROUP BY k`)
    .all(p) as Array<{ k: keyof typeof severity; c: number }>)
    severity[r.k] += r.c;
  severity.pending += extra.pending ?? 0;
  const titles = tagCounts(db, TAG.title, true);
  const addTitle = (title: string, c: number) =>
    c > 0 && titles.set(title, (titles.get(title) ?? 0) + c);
  addTitle(WARNING_TITLES.other_model_main, num(t.other));
  addTitle(WARNING_TITLES.no_capture, num(t.nocap));
  const sides = new Map<string, number>();
  if (num(t.has_pattern)) sides.set("pattern", num(t.pattern));
  if (num(t.has_self)) sides.set("self_calibration", num(t.self));
  return {
    rollouts: n,
    from_store: num(t.from_store),
    masked: num(t.masked),
    masked_fraction: n ? num(t.masked) / n : 0,
    severity,
    severity_reasons: counts(titles),
    policy_model: extra.policyModel ?? null,
    mask_reasons: counts(tagCounts(db, TAG.maskReason, false)),
    delivered_fraction: counts(columnCounts(db, "delivered_bucket"), "key"),
    chains_per_rollout: counts(columnCounts(db, "chains"), "key"),
    roots_per_rollout: counts(columnCounts(db, "roots"), "key"),
    calls_per_rollout: counts(columnCounts(db, "n_calls"), "key"),
    quarantined_calls: num(t.quarantined),
    rollouts_with_quarantine: num(t.with_q),
    side_calls_by_reason: counts(sides),
    fallbacks_by_reason: counts(tagCounts(db, TAG.fallback, true)),
    status_codes: counts(tagCounts(db, TAG.status, true), "key"),
    error_categories: counts(tagCounts(db, TAG.errorCategory, true)),
    reward_mean: t.reward_mean === null ? null : num(t.reward_mean),
    per_step: perStep(db),
    alerts: alertsOf(alertFacts(db, p, n), extra),
  };
}

/** The lifecycle alert (token ids outside any vocabulary) over the index's rows. */
export function lifecycleAlertsOfRows(db: Database.Database, facts: RunFacts): Alert[] {
  const p = factParams(facts);
  const where = "ifnull(s.oov_tokens, 0) > 0";
  const t = db
    .prepare(
      `SELECT COUNT(*) AS n, SUM(s.oov_tokens) AS tokens, SUM(${SERVED_SEVERITY_SQL} = 'trained_with_warnings') AS trained FROM summaries s WHERE ${where}`,
    )
    .get(p) as Row;
  const ids = flaggedBy(db, where, p).ids;
  const alert = outsideIdsAlertOf({
    count: num(t.n),
    ids,
    tokens: num(t.tokens),
    trained: num(t.trained),
  });
  return alert ? [alert] : [];
}

/** The run page's notes over the index's rows. */
export function notesOfRows(db: Database.Database, patterns: readonly string[]): HealthNote[] {
  const t = db
    .prepare(
      "SELECT COUNT(*) AS n, SUM(other_profile_disagrees) AS differ, SUM(side_self) AS calls, SUM(side_self > 0) AS found FROM summaries",
    )
    .get() as Row;
  const profiles = db
    .prepare("SELECT DISTINCT profile FROM summaries WHERE other_profile_disagrees = 1")
    .pluck()
    .all() as Array<RolloutSummary["profile"]>;
  return notesFrom(
    {
      rollouts: num(t.n),
      differ: num(t.differ),
      profiles: new Set(profiles),
      calls: num(t.calls),
      found: num(t.found),
      models: tagCounts(db, TAG.selfCalibrated, true),
    },
    patterns,
  );
}
