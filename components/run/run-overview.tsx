"use client";
// The run page's container: the alerts, the health's headline numbers, the rollouts table, then
// the health's charts (after the table, so it is reachable without scrolling past eleven panels).
// While the index counts or summarises, the page says "indexing N of M rollouts" with a progress
// bar and skeleton charts,
// never a count, a 0 or "healthy" that is not final (lib/health/index-state); the progress line
// and the table's count read the same response, so they agree. A run with token capture off leads
// with what it has (its training curve, its records) and says in one line that it has no capture.
import Link from "next/link";
import { useMemo } from "react";
import { useUrlState } from "@/components/shared/url-state";
import {
  indexState,
  isSettled,
  noAlertsClaim,
  progressWords,
  type IndexState,
  captureOffLine,
  curveSource,
  recordsSource,
} from "@/lib/health/pure";
import type { TrainingCurveView } from "@/lib/health";
import type { RunHealth } from "@/lib/schema";
import { Alerts, ROLLOUTS_ANCHOR } from "./alerts";
import { HealthCharts, HealthKpis } from "./health-charts";
import { HealthSkeleton } from "./health-skeleton";
import { RolloutsTable } from "./rollouts-table";
import { queryFrom } from "./table-filters";
import { TrainingCurve } from "./training-curve";
import { TrainingSectionView } from "./training-section";
import { Hotspots } from "./hotspots";
import { TruthCheck } from "./truth-check";
import { SignalLedger } from "./signal-ledger";
import { useRowPages } from "./use-row-pages";
import { useRunHealth } from "./use-run-health";

/** What the page knows of the run's files (app/runs/[run]/page), beside its health. */
export interface RunFacts {
  /** The manifest says `capture: "off"`. */
  captureOff: boolean;
  /** The run has a token store, a model-call store or records: there are rollouts to count. */
  hasSources: boolean;
  hasRecords: boolean;
}

export function RunOverview({ initial, facts }: { initial: RunHealth; facts: RunFacts }) {
  const { health, version } = useRunHealth(initial, facts.hasSources);
  const [params] = useUrlState();
  const runId = health.run_id;
  const recordSteps = useMemo(() => new Set(health.per_step.map((p) => p.step)), [health.per_step]);
  const rows = useRowPages(runId, queryFrom(params), version);
  const state = indexState(health.progress, health.rollouts, facts.hasSources);
  const tableState = rows.page
    ? indexState(rows.page.progress, rows.page.all, facts.hasSources)
    : null;
  // The line reads the table's newest page once there is one (so the two counts agree) and stays
  // until both the health and the table have seen the index finish.
  const indexing = !isSettled(state) || (tableState !== null && !isSettled(tableState));
  // The panels asked again as a live run grows: once per settled index, not on each progress
  // poll while it counts (every half second on a cold run, beside the page's own requests).
  const settledVersion = indexing ? 0 : version;
  const progress = indexing ? <IndexProgress s={tableState ?? state} /> : null;
  const table = <RolloutsTable runId={runId} health={health} rows={rows} state={tableState} />;
  const error = health.progress.error && (
    <div className="error-box">Index error: {health.progress.error}</div>
  );
  // A run of trainer logs alone (no store, no records) has no capture to check either.
  if (facts.captureOff || !facts.hasSources)
    return (
      <>
        {progress}
        {error}
        <p data-testid="capture-off-note">
          {captureOffLine({
            steps: health.curve?.steps ?? 0,
            hasRecords: facts.hasRecords,
            declared: facts.captureOff,
          })}
        </p>
        {health.curve && <TrainingCurve curve={health.curve} />}
        <AlertsSection health={health} state={state} captureOff />
        <TruthCheck runId={runId} />
        <Hotspots runId={runId} version={settledVersion} />
        <TrainingSectionView runId={runId} recordSteps={recordSteps} />
        {(facts.hasRecords || health.rollouts > 0) && (
          <>
            <h2 id={ROLLOUTS_ANCHOR}>Records</h2>
            <Sources health={health} state={state} curve={health.curve} />
            {table}
          </>
        )}
      </>
    );
  return (
    <>
      {progress}
      {error}
      <AlertsSection health={health} state={state} captureOff={false} />
      {/* While indexing, the progress line above says so; the skeleton waits below the table. */}
      {isSettled(state) && (
        <>
          <h2>Health</h2>
          <Sources health={health} state={state} curve={health.curve} />
          <HealthKpis h={health} />
        </>
      )}
      <TruthCheck runId={runId} />
      {/* The alerts' "list all N in the table" links end in #rollouts (components/run/alerts). The
          table comes before the charts, so it is in the first screen of a 1400×900 window. */}
      <h2 id={ROLLOUTS_ANCHOR}>Rollouts</h2>
      {table}
      <h2>Health charts</h2>
      {isSettled(state) ? (
        <>
          <HealthCharts h={health} />
        </>
      ) : (
        <HealthSkeleton words={progressWords(tableState ?? state)} />
      )}
      <Hotspots runId={runId} version={settledVersion} />
      {isSettled(state) && <SignalLedger runId={runId} version={settledVersion} />}
      <TrainingSectionView runId={runId} recordSteps={recordSteps} />
    </>
  );
}

function IndexProgress({ s }: { s: IndexState }) {
  return (
    <div
      className="card progress"
      role="status"
      data-testid="index-progress"
      data-state={s.kind}
      data-indexed={s.kind === "counting" ? undefined : s.indexed}
      data-total={s.kind === "indexing" ? s.total : s.kind === "complete" ? s.indexed : undefined}
    >
      <span data-testid="index-progress-words">{progressWords(s)}</span>{" "}
      {s.kind === "indexing" && s.recordsRead !== null ? (
        <progress aria-label="rollouts.jsonl read" max={1} value={s.recordsRead} />
      ) : s.kind === "indexing" ? (
        <progress aria-label="rollouts indexed" max={Math.max(1, s.total)} value={s.indexed} />
      ) : s.kind === "counting" ? (
        <progress aria-label="counting rollouts" />
      ) : (
        <progress aria-label="rollouts indexed" max={1} value={1} />
      )}{" "}
      <span className="muted">
        — the table lists what is shown so far; counts and charts follow once every rollout is
        indexed.
      </span>
    </div>
  );
}

/**
 * Alerts found so far are shown as they come; the all-clear only once every rollout is
 * checked, and never for a run without capture.
 */
function AlertsSection({
  health,
  state,
  captureOff,
}: {
  health: RunHealth;
  state: IndexState;
  captureOff: boolean;
}) {
  const runId = health.run_id;
  const settled = isSettled(state);
  const claim = noAlertsClaim(state, captureOff);
  if (health.alerts.length === 0 && claim === "no_capture") return null;
  return (
    <>
      <h2>{settled ? "Alerts" : "Alerts so far"}</h2>
      {health.alerts.length > 0 || claim === "healthy" ? (
        <Alerts
          runId={runId}
          alerts={health.alerts}
          masked={{
            count: health.masked,
            fraction: health.masked_fraction,
            warnings: health.severity.trained_with_warnings,
          }}
        />
      ) : (
        <p className="muted" data-testid="alerts-pending">
          None so far: the run&apos;s alerts are known once every rollout is indexed.
        </p>
      )}
      {health.notes.map((n) => (
        <p key={n.kind} className="muted health-note" data-testid="health-note" data-kind={n.kind}>
          {n.message}
          {n.table_query && (
            <>
              {" "}
              <Link href={`/runs/${encodeURIComponent(runId)}?${n.table_query}#${ROLLOUTS_ANCHOR}`}>
                list them in the table
              </Link>
            </>
          )}
        </p>
      ))}
    </>
  );
}

/** Where the page's reward numbers come from, so they are not mistaken for compare's. */
function Sources({
  health,
  state,
  curve,
}: {
  health: RunHealth;
  state: IndexState;
  curve: TrainingCurveView | null;
}) {
  const parts: string[] = [];
  if (isSettled(state) && health.reward_mean !== null)
    parts.push(`mean reward ${health.reward_mean.toFixed(3)} (${recordsSource(health.rollouts)})`);
  // The runs list and compare show the curve's mean: said here too, so the two pages' numbers meet.
  if (curve)
    parts.push(
      curve.mean === null
        ? `reward per step (${curveSource(curve.steps)})`
        : `mean reward per step ${curve.mean.toFixed(3)} (${curveSource(curve.steps)}: the runs list's and compare's)`,
    );
  if (parts.length === 0) return null;
  return (
    <p className="muted small" data-testid="run-sources">
      Sources: {parts.join(" · ")}
    </p>
  );
}
