// A run's health and rollouts as its routes and pages show them: the summary index's current
// summaries with the run's severity applied (its policy model and run-level warnings), the
// aggregates over them (computed once per index generation) with the alerts about the run's files,
// the index's progress, a page of rollout rows, and the training curve (reward per step from
// metrics.jsonl, else the trainer logs' train/reward) downsampled to at most MAX_POINTS (gaps
// kept). Every alert naming rollouts carries the table query that lists them (its link on the run
// page). Reads nothing itself; lib/runs does.
import "server-only";
import type { Alert, HealthReport, RolloutPage, RolloutSummary, RunHealth } from "@/lib/schema";
import type { RunMetrics } from "@/lib/runs/metrics";
import { readTrainingCurve } from "@/lib/runs/run-scalars";
import {
  alertTableQuery,
  filterKey,
  selectRollouts,
  type RolloutQuery,
} from "@/lib/runs/rollout-query";
import type { RunLayout } from "@/lib/runs/runs-root";
import { indexFor, type IndexSnapshot, type SummaryIndex } from "@/lib/runs/summary-index";
import { fileAlerts } from "./file-alerts";
import { computeHealth } from "./health";
import { healthNotes } from "./health-notes";
import { lifecycleAlerts } from "./lifecycle-alerts";
import { truthAlerts } from "./truth-alerts";
import { withRunSeverity, type RunSeverity } from "./run-severity";

const MAX_POINTS = 1000;

/** Rollouts the index has not summarised yet (a cold index's missing rows): pending, not trained. */
function pendingOf(snap: IndexSnapshot): number {
  const p = snap.progress;
  return p.running ? Math.max(0, p.total - p.done) : 0;
}

/**
 * How long a request waits for the index: the caller's wait (the snapshot's default when none)
 * for a first look, so a small run's first answer is complete; none once the index is summarising,
 * so the run page's polls during a long cold index answer at once with what is done.
 */
const waitFor = (index: SummaryIndex, waitMs?: number): number | undefined =>
  index.progress.running ? 0 : waitMs;

/** The run's severity for the index's current generation (memoised like every derived view). */
function runSeverityOf(index: SummaryIndex, run: RunLayout): RunSeverity {
  return index.memo("run-severity", (all) => withRunSeverity(all, run.manifest));
}

export interface ServedSnapshot {
  snap: IndexSnapshot;
  policy_model: string | null;
  /** Summaries as served: the run's warnings applied. */
  summaries: RolloutSummary[];
}

/** The run's summaries as every route serves them (the table, exports, neighbours, health). */
export async function servedSnapshot(run: RunLayout, waitMs?: number): Promise<ServedSnapshot> {
  const index = indexFor(run);
  const snap = await index.snapshot({ waitMs });
  const { policy_model, summaries } = runSeverityOf(index, run);
  return { snap, policy_model, summaries };
}

/**
 * The run's index snapshot, metrics and health report (computed once per index generation for every
 * caller), its alerts including those about the run's files.
 */
export async function snapshotWithHealth(
  run: RunLayout,
  waitMs?: number,
): Promise<{ snap: IndexSnapshot; health: HealthReport; metrics: RunMetrics }> {
  const index = indexFor(run);
  const [, metrics] = await Promise.all([
    index.snapshot({ waitMs: waitFor(index, waitMs) }),
    readTrainingCurve(run),
  ]);
  // Taken again with nothing awaited after it until the health is computed: the summaries counted
  // and the progress (pending) are of one moment, so counted + pending is the run's rollouts.
  const snap = await index.snapshot({ waitMs: 0 });
  const unreadableRecords = snap.unreadable_records.length;
  const pending = pendingOf(snap);
  const sev = runSeverityOf(index, run);
  const health = index.memo(`health:${unreadableRecords}:${pending}`, () => {
    const h = computeHealth(sev.summaries, {
      unreadableRecords,
      pending,
      policyModel: sev.policy_model,
    });
    return { ...h, alerts: [...h.alerts, ...lifecycleAlerts(sev.summaries)] };
  });
  // The trainer's own logs against the capture (cached by file versions; none without logs).
  const truth = await truthAlerts(run).catch(() => []);
  const alerts = withTableQueries([...health.alerts, ...fileAlerts(snap, metrics), ...truth]);
  return { snap, metrics, health: { ...health, alerts } };
}

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

/** One window of the table's filtered, sorted rows (the sorted list is kept per index generation). */
export async function rolloutPage(run: RunLayout, query: RolloutQuery): Promise<RolloutPage> {
  const index = indexFor(run);
  const snap = await index.snapshot({ waitMs: waitFor(index) });
  const sev = runSeverityOf(index, run);
  const rows = index.memo(`served-rows:${filterKey(query)}`, () =>
    selectRollouts(sev.summaries, query),
  );
  return {
    total: rows.length,
    all: snap.summaries.length,
    offset: query.offset,
    rollouts: rows.slice(query.offset, query.offset + query.limit),
    progress: snap.progress,
    policy_model: sev.policy_model,
  };
}

/** `waitMs`: how long a first look waits for a cold index (the run page waits less than a route). */
export async function runHealth(run: RunLayout, waitMs?: number): Promise<RunHealth> {
  const { snap, health, metrics } = await snapshotWithHealth(run, waitMs);
  const stride = Math.max(1, Math.ceil(metrics.rows.length / MAX_POINTS));
  return {
    ...health,
    run_id: run.id,
    progress: snap.progress,
    // A NaN reward (a gap) is always kept, so downsampling never draws a line across it.
    metrics: metrics.rows
      .filter((r, i) => i % stride === 0 || (r.nonFinite?.includes("reward") ?? false))
      .map((r) => ({ step: r.step, reward: r.reward })),
    metrics_unreadable: metrics.unreadable,
    skipped_files: snap.skipped_files,
    notes: healthNotes(
      runSeverityOf(indexFor(run), run).summaries,
      run.manifest.side_call_patterns ?? [],
    ),
  };
}
