// A run's health as queries over its summary index (lib/index/sql's rows): the same report
// lib/health/health.ts computes from summaries in memory — counts, distributions, per-step series,
// alerts with their first rollouts — with the run-level severity applied in SQL. Also the notes and
// the lifecycle alert over the same rows. All of it from one pass (./scan); reads the
// database only; the caller caches the result and chooses the thread's pace (./pass).
import "server-only";
import type Database from "better-sqlite3";
import type { Alert, HealthReport, RolloutSummary, StepPoint } from "@/lib/schema";
import { TAG, factParams, type RunFacts } from "@/lib/index";
import { rerenderedAt, type RerenderFacts } from "@/lib/ledger";
import { countBySeverity, WARNING_TITLES } from "@/lib/severity";
import { alertsOf, counts, type AlertFacts, type HealthExtra } from "./health";
import { notesFrom, type HealthNote, type NoteFacts } from "./notes";
import {
  healthScan,
  scanNow,
  SUM_KEYS,
  type Flag,
  type Group,
  type ScanResult,
  type SumKey,
} from "./scan";
import { outsideIdsAlertOf } from "./alerts";

const num = (v: unknown) => Number(v ?? 0);

/** The health, the lifecycle alert, the notes' and the splice alert's facts of one pass. */
export interface HealthParts {
  health: HealthReport;
  lifecycle: Alert[];
  notes: NoteFacts;
  rerenders: RerenderFacts;
}

/** `groups` summed into one row (sums of groups where `pick` holds). */
const ALL = () => true;
const WARNED = (g: Group) => g.sev === "trained_with_warnings";
/** Sums already added up, per groups and pick (a pass's report asks for the same ones often). */
const summed = new WeakMap<Group[], Map<(g: Group) => boolean, Record<SumKey, number>>>();

function total(groups: Group[], pick: (g: Group) => boolean = ALL): Record<SumKey, number> {
  const known = summed.get(groups) ?? new Map<(g: Group) => boolean, Record<SumKey, number>>();
  summed.set(groups, known);
  const had = known.get(pick);
  if (had) return had;
  const out = Object.fromEntries(SUM_KEYS.map((k) => [k, 0])) as Record<SumKey, number>;
  for (const g of groups) {
    if (!pick(g)) continue;
    for (const k of SUM_KEYS) out[k] += num(g[k]);
  }
  known.set(pick, out);
  return out;
}

/** Rows per value of a group key (nulls left out), as the charts list them. */
function byKey(groups: Group[], key: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const g of groups) {
    const v = g[key];
    if (v !== null) m.set(String(v), (m.get(String(v)) ?? 0) + num(g.c));
  }
  return m;
}

function perStep(groups: Group[]): StepPoint[] {
  const steps = new Map<number, Group[]>();
  for (const g of groups) {
    if (g.step === null) continue;
    const at = steps.get(num(g.step));
    if (at) at.push(g);
    else steps.set(num(g.step), [g]);
  }
  return [...steps.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([step, gs]) => {
      const t = total(gs);
      return {
        step,
        rollouts: t.c,
        masked_fraction: total(gs, (g) => g.sev === "masked").c / t.c,
        reward_mean: t.reward_n ? t.reward_sum / t.reward_n : null,
        calls_mean: t.calls_n ? t.calls_sum / t.calls_n : 0,
        delivered_mean: t.delivered_n ? t.delivered_sum / t.delivered_n : null,
        side_calls: t.side_calls,
        quarantined: t.quarantined,
        failed_calls: t.failed_calls,
        expert_fallback_fraction: t.expert_expected ? t.expert_fallback / t.expert_expected : null,
      };
    });
}

function alertFacts(db: Database.Database, scan: ScanResult, rollouts: number): AlertFacts {
  const t = total(scan.groups);
  const flag = (f: Flag) => ({ count: t[`f_${f}`], ids: scan.ids[f] });
  const first = scan.ids.cut_short[0];
  const call = first
    ? (db.prepare("SELECT cut_short_call FROM summaries WHERE id = ?").pluck().get(first) as string)
    : null;
  const other = scan.ids.other_model_main[0];
  const model = other
    ? (db.prepare("SELECT main_model FROM summaries WHERE id = ?").pluck().get(other) as
        string | null)
    : null;
  return {
    flagged: {
      cut_short: flag("cut_short"),
      other_model_main: flag("other_model_main"),
      masked_fraction: flag("masked_fraction"),
      dangling_intents: flag("dangling_intents"),
      unreadable: flag("unreadable"),
      newer_schema: flag("newer_schema"),
      unreadable_records: { count: 0, ids: [] },
      expert_fallback: flag("expert_fallback"),
    },
    rollouts,
    experts: { expected: t.expert_expected, fallback: t.expert_fallback, none: t.expert_none },
    cutShort: {
      first: first && call ? { rollout_id: first, cut_short_call: JSON.parse(call) } : null,
      trained: total(scan.groups, WARNED).f_cut_short,
    },
    otherModel: model,
  };
}

function reportOf(db: Database.Database, scan: ScanResult, extra: HealthExtra): HealthReport {
  const t = total(scan.groups);
  // Rows whose verdict is known: a store rollout's row standing in from its record is pending
  // (lib/index/update standInOf), so the rollouts counted and the pending ones make the run.
  const n = t.c - (byKey(scan.groups, "sev").get("pending") ?? 0);
  const severity = countBySeverity([]);
  for (const [k, c] of byKey(scan.groups, "sev")) severity[k as keyof typeof severity] += c;
  severity.pending += extra.pending ?? 0;
  const titles = new Map(scan.tags.get(TAG.title));
  const addTitle = (title: string, c: number) =>
    c > 0 && titles.set(title, (titles.get(title) ?? 0) + c);
  addTitle(WARNING_TITLES.other_model_main, t.other);
  addTitle(WARNING_TITLES.no_capture, t.nocap);
  addTitle(WARNING_TITLES.trainer_differs, t.tdiff);
  const sides = new Map<string, number>();
  if (t.has_pattern) sides.set("pattern", t.pattern);
  if (t.has_self) sides.set("self_calibration", t.self);
  const tags = (prefix: string) => scan.tags.get(prefix) ?? new Map<string, number>();
  return {
    rollouts: n,
    from_store: t.from_store,
    masked: byKey(scan.groups, "sev").get("masked") ?? 0,
    masked_fraction: n ? (byKey(scan.groups, "sev").get("masked") ?? 0) / n : 0,
    severity,
    severity_reasons: counts(titles),
    policy_model: extra.policyModel ?? null,
    mask_reasons: counts(tags(TAG.maskReason)),
    delivered_fraction: counts(byKey(scan.dists, "bucket"), "key"),
    chains_per_rollout: counts(byKey(scan.dists, "chains"), "key"),
    roots_per_rollout: counts(byKey(scan.dists, "roots"), "key"),
    calls_per_rollout: counts(byKey(scan.dists, "n_calls"), "key"),
    quarantined_calls: t.quarantined,
    rollouts_with_quarantine: t.with_q,
    rollouts_with_capture: t.with_capture,
    side_calls_by_reason: counts(sides),
    fallbacks_by_reason: counts(tags(TAG.fallback)),
    status_codes: counts(tags(TAG.status), "key"),
    error_categories: counts(tags(TAG.errorCategory)),
    reward_mean: t.reward_n ? t.reward_sum / t.reward_n : null,
    per_step: perStep(scan.groups),
    alerts: alertsOf(alertFacts(db, scan, n), extra),
  };
}

/** The lifecycle alert (token ids outside any vocabulary) of a pass. */
function lifecycleOf(scan: ScanResult): Alert[] {
  const alert = outsideIdsAlertOf({
    count: total(scan.groups).f_oov,
    ids: scan.ids.oov,
    tokens: total(scan.groups).oov_tokens,
    trained: total(scan.groups, WARNED).f_oov,
  });
  return alert ? [alert] : [];
}

function noteFactsOf(scan: ScanResult): NoteFacts {
  const t = total(scan.groups);
  const profiles = new Set<RolloutSummary["profile"]>();
  for (const g of scan.dists)
    if (g.dprofile !== null) profiles.add(g.dprofile as RolloutSummary["profile"]);
  return {
    rollouts: t.c,
    differ: t.differ,
    profiles,
    calls: t.self,
    found: t.found,
    models: scan.tags.get(TAG.selfCalibrated) ?? new Map(),
  };
}

/**
 * The pass and what it makes, yielding between its statements: run it at once (`healthPartsNow`)
 * or paced (./pass). The caller holds a read transaction when the rows may change meanwhile.
 */
export function* healthParts(
  db: Database.Database,
  facts: RunFacts,
  extra: HealthExtra = {},
  chunk?: number,
): Generator<void, HealthParts> {
  const scan = yield* healthScan(db, factParams(facts), chunk);
  const health = reportOf(db, scan, extra);
  yield;
  const rerenders = rerendersOf(db, scan);
  return { health, lifecycle: lifecycleOf(scan), notes: noteFactsOf(scan), rerenders };
}

/** The splice alert's facts from the pass's sums, and its first rollouts' splice facts. */
function rerendersOf(db: Database.Database, scan: ScanResult): RerenderFacts {
  const t = total(scan.groups);
  const rows = db
    .prepare(
      "SELECT s.id, s.splice FROM json_each(?) j JOIN summaries s ON s.id = j.value ORDER BY j.key",
    )
    .all(JSON.stringify(scan.ids.rerendered)) as Array<{ id: string; splice: string }>;
  return {
    calls: t.splice_calls,
    rerendered: t.splice_rerendered,
    rollouts: t.f_rerendered,
    sample: rerenderedAt(rows),
  };
}

/** The run's health over the index's rows (HealthReport, as computeHealth gives it). */
export function healthOfRows(
  db: Database.Database,
  facts: RunFacts,
  extra: HealthExtra = {},
): HealthReport {
  return reportOf(db, scanNow(db, factParams(facts)), extra);
}

/** The lifecycle alert (token ids outside any vocabulary) over the index's rows. */
export function lifecycleAlertsOfRows(db: Database.Database, facts: RunFacts): Alert[] {
  return lifecycleOf(scanNow(db, factParams(facts)));
}

/** The run page's notes over the index's rows. */
export function notesOfRows(db: Database.Database, patterns: readonly string[]): HealthNote[] {
  const facts: RunFacts = { policy_model: null, capture_expected: null };
  return notesFrom(noteFactsOf(scanNow(db, factParams(facts))), patterns);
}
