// A run's health as its routes and pages show it: the aggregates over the summary index's rows
// (queries, computed once per index generation, and as an index ends (settleHealth), the run's
// severity applied) with the alerts about the run's files, the index's progress, and the run's one
// training curve (./training-curve: the trainer logs' reward, else metrics.jsonl's, downsampled
// once). The rows themselves, as the table serves them, are lib/index/served'. Every alert naming
// rollouts carries the table query that lists them (its link on the run page). Reads nothing
// itself; lib/runs does.
import "server-only";
import type Database from "better-sqlite3";
import type { Alert, HealthReport, RunHealth } from "@/lib/schema";
import type { RunMetrics, RunLayout } from "@/lib/runs";
import { readTrainingCurve, type ScalarSeries } from "@/lib/trainer";
import { trainingCurve, type TrainingCurveView } from "./training-curve";
import {
  alertTableQuery,
  indexFor,
  type IndexSnapshot,
  onIndexSettled,
  type SummaryIndex,
  runFactsOf,
  waitFor,
  type RunFacts,
} from "@/lib/index";
import { fileAlerts, recordAlerts, spliceAlerts, truthAlerts } from "./alerts";
import type { HealthExtra } from "./health";
import { notesFrom, type NoteFacts } from "./notes";
import { paced } from "./pass";
import { healthParts } from "./sql";

/**
 * Rollouts the index has not summarised yet and holds no row of (a cold index's missing rows):
 * pending, not trained. A row standing in from its record is pending by its own verdict
 * (lib/index/update standInOf), and a rollout summarised again is counted by its old row's.
 */
function pendingOf(snap: IndexSnapshot): number {
  const p = snap.progress;
  return p.running ? Math.max(0, p.total - p.done - p.from_records - p.replacing) : 0;
}

/** The health of one pass, the notes' facts and the splice alert from the same rows. */
interface Computed {
  health: HealthReport;
  notes: NoteFacts;
  splice: Alert[];
}

/** Each index's last health, and the pass under way. */
interface Kept {
  key: string;
  at: number;
  value: Computed | null;
  running: Promise<Computed> | null;
}
/** On globalThis: the health an index's end computes (settleHealth) serves every route's bundle. */
const KEPT = Symbol.for("rollout-lens.run-health");
const kept = ((globalThis as { [KEPT]?: WeakMap<SummaryIndex, Kept> })[KEPT] ??= new WeakMap());
/** While an index summarises, its health is recomputed at most this often. */
export const HEALTH_REFRESH_MS = 1000;

/** One pass: the health, its lifecycle and record alerts, and the notes' facts. */
function* computed(db: Database.Database, facts: RunFacts, extra: HealthExtra) {
  const parts = yield* healthParts(db, facts, extra);
  yield;
  // A record disagrees only with a verdict built from a store: none without store rows.
  const records = parts.health.from_store > 0 ? recordAlerts(db) : [];
  const alerts = [...parts.health.alerts, ...parts.lifecycle, ...records];
  const splice = spliceAlerts(parts.rerenders);
  return { health: { ...parts.health, alerts }, notes: parts.notes, splice };
}

/**
 * The index's health for the caller's moment: computed once per generation (off the event loop's
 * way, ./pass); while the index summarises, the last one (its counted + pending the run's
 * rollouts at its moment) serves for up to HEALTH_REFRESH_MS, and one pass runs at a time.
 */
function healthOf(
  index: SummaryIndex,
  facts: RunFacts,
  extra: HealthExtra,
  rollouts: number,
  /** The index's end asks (ending: nothing pending), never served an earlier moment's. */
  ending = false,
): Promise<Computed> {
  const key = JSON.stringify([index.rows.generation, extra.pending, facts]);
  const k = kept.get(index);
  if (k?.key === key) return k.running ?? Promise.resolve(k.value as Computed);
  // Only a health of the same run (its counted + pending the rollouts the progress has now) serves.
  const same = (h: HealthReport) =>
    h.rollouts + h.severity.pending === rollouts && h.severity.pending > 0;
  if (k && !ending && index.progress.running && k.key.endsWith(JSON.stringify(facts) + "]")) {
    if (k.running && (extra.pending ?? 0) > 0) return k.running;
    if (k.value && same(k.value.health) && Date.now() - k.at < HEALTH_REFRESH_MS)
      return Promise.resolve(k.value);
  }
  const entry: Kept = { key, at: Date.now(), value: k?.value ?? null, running: null };
  const running = paced(index.rows.handle, (db) => computed(db, facts, extra)).then(
    (value) => {
      Object.assign(entry, { value, at: Date.now(), running: null });
      return value;
    },
    (err: unknown) => {
      if (kept.get(index) === entry) kept.delete(index);
      throw err;
    },
  );
  entry.running = running;
  kept.set(index, entry);
  return running;
}

/**
 * The health the first look after an index will ask for (every rollout summarised, none pending),
 * computed as the index ends (lib/index onIndexSettled), so that look is a warm one.
 */
async function settleHealth(index: SummaryIndex): Promise<void> {
  const facts = runFactsOf(index, index.run);
  await healthOf(
    index,
    facts,
    { pending: 0, policyModel: facts.policy_model },
    index.count(),
    true,
  );
}
onIndexSettled(settleHealth);

/**
 * The run's index snapshot, metrics and health report (computed once per index generation for every
 * caller), its alerts including those about the run's files.
 */
export async function snapshotWithHealth(
  run: RunLayout,
  waitMs?: number,
  /** A page's wait: ends as soon as the index cannot end soon (lib/index/wait). */
  brief = false,
  /** How old the index may be before this look refreshes it (the index's default: 2 s). */
  minIntervalMs?: number,
): Promise<{
  snap: IndexSnapshot;
  health: HealthReport;
  metrics: RunMetrics;
  curve: TrainingCurveView | null;
  notes: NoteFacts;
}> {
  const index = indexFor(run);
  const [, read] = await Promise.all([
    index.snapshot({ waitMs: waitFor(index, waitMs), brief, minIntervalMs }),
    readTrainingCurve(run),
  ]);
  const { metrics } = read;
  // The trainer's own logs against the capture (cached by file versions; none without logs), first:
  // the rollouts it trained otherwise are a run-level warning the health counts (lib/index).
  const truth = await truthAlerts(run).catch(() => []);
  // Taken again with nothing awaited after it until the health is computed: the rows counted
  // and the progress (pending) are of one moment, so counted + pending is the run's rollouts.
  const snap = await index.snapshot({ waitMs: 0 });
  const pending = pendingOf(snap);
  const facts = runFactsOf(index, run);
  // Its first statement runs before anything is awaited: the rows counted are this moment's.
  const extra = { pending, policyModel: facts.policy_model };
  const { health, notes, splice } = await healthOf(index, facts, extra, snap.count + pending);
  const alerts = withTableQueries([
    ...health.alerts,
    ...fileAlerts(snap, metrics, run.manifestError),
    ...truth,
    ...splice,
  ]);
  const curve = curveView(read.series);
  return { snap, metrics, curve, notes, health: { ...health, alerts } };
}

/** The curve view of a reward series, once per series (series are cached by file version). */
function curveView(series: ScalarSeries | null): TrainingCurveView | null {
  if (series === null) return null;
  let view = curveViews.get(series);
  if (view === undefined) curveViews.set(series, (view = trainingCurve([series])));
  return view;
}

const curveViews = new WeakMap<ScalarSeries, TrainingCurveView | null>();

/**
 * Each alert that names rollouts with the rollouts table's query listing exactly them, so its link
 * opens the run's table filtered to them; one its maker already linked keeps its query.
 */
export function withTableQueries(alerts: readonly Alert[]): Alert[] {
  return alerts.map((a) => {
    if (a.table_query || a.rollout_ids.length === 0) return a;
    const query = alertTableQuery(a.kind);
    return query === null ? a : { ...a, table_query: query };
  });
}

/** `waitMs`: how long a first look waits for a cold index (the run page waits less than a route). */
export async function runHealth(
  run: RunLayout,
  waitMs?: number,
  brief = false,
): Promise<RunHealth> {
  const { snap, health, metrics, curve, notes } = await snapshotWithHealth(run, waitMs, brief);
  const patterns = run.manifest.side_call_patterns ?? [];
  return {
    ...health,
    run_id: run.id,
    progress: snap.progress,
    curve,
    metrics: curve?.points ?? [],
    metrics_unreadable: metrics.unreadable,
    skipped_files: snap.skipped_files,
    notes: notesFrom(notes, patterns),
  };
}
