"use client";
// The runs on the home page, worst first (lib/health/run-triage), with their key health numbers
// (masked and with-warnings side by side, rollouts per severity class in the classes' colours, a
// zero in grey) and the worst alert in words, linked to the rows it names; pick two to compare
// them. The one mean reward names its source (the training curve where there is one, else the
// records).
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { RunOverview } from "@/lib/schema";
import { SEVERITY_CLASS, SEVERITY_LABEL, SEVERITY_ORDER, ZERO_COUNT_CLASS } from "@/lib/severity";
import {
  isPartial,
  isSettling,
  overviewCells,
  overviewIndexState,
  curveSource,
  partialAlerts,
} from "@/lib/health/pure";
import { toldByWorstAlert, WorstAlert } from "./worst-alert";
import { LiveInput } from "@/components/shared/live-controls";

const PENDING = SEVERITY_CLASS.pending;
/** How often the page asks the server again while a run's numbers are not final. */
const REFRESH_MS = 1500;

/** The longest wait between two renders while a run never settles (a run still being written). */
const REFRESH_MAX_MS = 15_000;

/**
 * The server renders the home page once; while any run is still being indexed it renders it again
 * (the router keeps what was picked), so "indexing 0/24" moves on by itself: every REFRESH_MS at
 * first, the wait doubling after each 20 renders up to REFRESH_MAX_MS, so a run that is written
 * for hours does not have the page rendered every 1.5 s all along.
 */
function useRefreshWhileSettling(runs: RunOverview[]): void {
  const router = useRouter();
  const pending = runs.some(isSettling);
  const rounds = useRef(0);
  useEffect(() => {
    if (!pending) {
      rounds.current = 0;
      return;
    }
    const wait = Math.min(REFRESH_MAX_MS, REFRESH_MS * 2 ** Math.floor(rounds.current / 20));
    const t = window.setTimeout(() => {
      rounds.current++;
      router.refresh();
    }, wait);
    return () => window.clearTimeout(t);
  }, [runs, pending, router]);
}

/**
 * A run's rollouts per class; pending only while the index is still summarising, and then the
 * classes' counts are partial, so they say "—" rather than a number that is not final.
 */
function SeverityCounts({ run }: { run: RunOverview }) {
  const partial = isPartial(run);
  const shown = SEVERITY_ORDER.filter((s) => s !== "pending" || run.severity.pending > 0);
  return (
    <div className="severity-counts" style={{ display: "flex", gap: 4, flexWrap: "wrap" }}>
      {shown.map((s) => {
        const unknown = partial && s !== "pending";
        const n = run.severity[s];
        // A known zero is shown but muted: "masked 0" in red would read as an alarm.
        const cls = unknown ? PENDING : n === 0 ? ZERO_COUNT_CLASS : SEVERITY_CLASS[s];
        return (
          <span
            key={s}
            className={`badge ${cls}`}
            title={unknown ? `${SEVERITY_LABEL[s]}: not known yet` : SEVERITY_LABEL[s]}
            data-testid={`run-severity-${s}`}
            data-count={unknown ? undefined : n}
          >
            {SEVERITY_LABEL[s]} {unknown ? "—" : n}
          </span>
        );
      })}
    </div>
  );
}

export function RunList({ runs, root }: { runs: RunOverview[]; root: string }) {
  const [picked, setPicked] = useState<string[]>([]);
  useRefreshWhileSettling(runs);
  if (runs.length === 0) {
    return (
      <div className="card empty" data-testid="runs-empty">
        No runs under <span className="mono">{root}</span>. Point{" "}
        <span className="mono">ROLLOUT_LENS_RUNS</span> at a directory of runs or at a capture
        directory.
      </div>
    );
  }
  const toggle = (id: string) =>
    setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  const [a, b] = picked;
  return (
    <>
      <div className="toolbar">
        <span className="muted" data-testid="pick-hint">
          {runs.length < 2
            ? "Compare needs two runs: this root holds one."
            : a && b
              ? "Two runs picked; a third replaces the first."
              : a
                ? "One run picked: pick another to compare with it."
                : "Pick two runs to compare them."}
        </span>
        {a && b ? (
          <Link
            className="button"
            href={`/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`}
            data-testid="compare-link"
          >
            Compare {a} with {b}
          </Link>
        ) : (
          <span className="button disabled">Compare</span>
        )}
      </div>
      {/* A narrow window scrolls the table sideways in its own box, never the page. */}
      <div style={{ overflowX: "auto" }} tabIndex={0} role="region" aria-label="runs">
        <table className="grid" data-testid="runs-table">
          <thead>
            <tr>
              <th />
              <th>Run</th>
              <th>Capture</th>
              <th>Rollouts</th>
              <th>Masked</th>
              <th>With warnings</th>
              <th>Verdicts</th>
              <th>Mean reward</th>
              <th>Alerts</th>
              <th>Profile</th>
              <th>Description</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <RunRow key={r.id} r={r} picked={picked.includes(r.id)} toggle={toggle} />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function RunRow({
  r,
  picked,
  toggle,
}: {
  r: RunOverview;
  picked: boolean;
  toggle: (id: string) => void;
}) {
  // An index still listing the run's files reports no rollouts yet: not a 0 (lib/health/index-state).
  const counting = overviewIndexState(r).kind === "counting";
  const c = counting
    ? {
        partial: true,
        rollouts: "counting…",
        masked: "—",
        warnings: "—",
        reward: "—",
        reward_source: null,
        alerts: partialAlerts(r),
      }
    : overviewCells(r);
  const pending = c.partial ? PENDING : undefined;
  return (
    <tr data-testid="runs-row" data-run-id={r.id} data-partial={c.partial || undefined}>
      <td>
        <LiveInput
          type="checkbox"
          aria-label={`pick ${r.id}`}
          checked={picked}
          onChange={() => toggle(r.id)}
          data-testid="pick-run"
        />
      </td>
      <td>
        <Link href={`/runs/${encodeURIComponent(r.id)}`}>{r.name}</Link>
        <div className="muted mono">{r.id}</div>
      </td>
      <td>
        {r.capture ? (
          <span className={`badge ${r.capture === "on" ? "ok" : ""}`}>{r.capture}</span>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td data-testid="run-rollouts" className={pending}>
        {c.rollouts}
        {r.steps > 0 && (
          <div className="muted small" data-testid="run-steps">
            {curveSource(r.steps)}
          </div>
        )}
        {/* Before the listing counts the rollouts the cell above says "counting…": no 0/0. */}
        {r.indexing.running && r.indexing.total > 0 && (
          <div className="muted small">
            indexing {r.indexing.done}/{r.indexing.total}
          </div>
        )}
      </td>
      <td data-testid="run-masked" className={pending}>
        {c.masked}
      </td>
      <td data-testid="run-warnings" className={pending}>
        {c.warnings}
      </td>
      <td data-testid="run-severity">
        {r.rollouts || r.severity.pending ? (
          <SeverityCounts run={r} />
        ) : (
          <span className="muted">—</span>
        )}
      </td>
      <td
        data-testid="run-reward"
        className={r.reward.source === "training curve" ? undefined : pending}
      >
        {c.reward}
        {c.reward_source && (
          <div className="muted small" data-testid="run-reward-source">
            {c.reward_source}
          </div>
        )}
      </td>
      <td data-testid="run-alerts">
        {r.alerts ? (
          <span className="badge warn" data-testid="run-alert-count">
            {c.alerts}
          </span>
        ) : (
          <span className="muted" data-testid="run-alert-count">
            {c.alerts}
          </span>
        )}
        <WorstAlert r={r} />
      </td>
      <td>
        <span className="mono">{r.builder_profile}</span>
        <div className="muted small" data-testid="run-profile-reason">
          {r.profile_reason}
        </div>
      </td>
      <td>
        {r.description}
        {/* Told once: not again when it is the worst alert shown beside the count. */}
        {r.manifest_error && !toldByWorstAlert(r) && (
          <div className="badge bad">{r.manifest_error}</div>
        )}
      </td>
    </tr>
  );
}
