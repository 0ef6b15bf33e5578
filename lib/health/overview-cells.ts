// The home page's words for a run's numbers. While the index is still summarising, a count is
// partial ("16 of 40 so far") and masked, warnings, a records' reward and per-class counts are not
// known ("—"): nothing says 0 or a final number before it is. A training curve's mean does not wait
// for the index. A run with no rollout files says so, not "0". Rendering the cells is
// components/runs' job.
import type { RunOverview } from "@/lib/schema";
import { indexState, type IndexState } from "./index-state";
import { curveSource, recordsSource } from "./number-sources";
import { plural } from "@/lib/text";

export interface OverviewCells {
  /** The run's numbers are still partial: the cells carry the pending class. */
  partial: boolean;
  rollouts: string;
  masked: string;
  /** Rollouts trained with warnings, beside masked. */
  warnings: string;
  reward: string;
  /** Where the mean reward is from ("training curve: 100 steps", "records: 24 rollouts"), or null. */
  reward_source: string | null;
  alerts: string;
}

/** The alerts cell while the run indexes: the ones raised so far, said as such, or not known. */
export function partialAlerts(r: RunOverview): string {
  return r.alerts > 0 ? `${plural(r.alerts, "alert")} so far` : "—";
}

/** The index has not summarised every rollout yet (running, or rollouts still pending). */
export function isPartial(r: RunOverview): boolean {
  return r.indexing.running || r.severity.pending > 0;
}

/** The state of the run's index as its home row reads it (./index-state). */
export function overviewIndexState(r: RunOverview): IndexState {
  return indexState(r.indexing, r.rollouts, r.has_rollout_records || r.has_store);
}

/** A run whose numbers may still change: its index is counting, running or summarising. */
export function isSettling(r: RunOverview): boolean {
  return isPartial(r) || overviewIndexState(r).kind !== "complete";
}

function rewardCells(
  r: RunOverview,
  partial: boolean,
): Pick<OverviewCells, "reward" | "reward_source"> {
  const { mean, source } = r.reward;
  if (mean === null || (partial && source === "records"))
    return { reward: "—", reward_source: null };
  return {
    reward: mean.toFixed(3),
    reward_source: source === "training curve" ? curveSource(r.steps) : recordsSource(r.rollouts),
  };
}

export function overviewCells(r: RunOverview): OverviewCells {
  if (isPartial(r)) {
    const total = Math.max(r.indexing.total, r.rollouts + r.severity.pending);
    return {
      partial: true,
      // Nothing counted yet is not "0 of 0": the run's rollouts are still being listed.
      rollouts:
        total === 0
          ? "counting…"
          : `${r.rollouts.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} so far`,
      masked: "—",
      warnings: "—",
      ...rewardCells(r, true),
      alerts: partialAlerts(r),
    };
  }
  const share = (n: number) => `${n} (${((n / r.rollouts) * 100).toFixed(1)}%)`;
  // No rollouts.jsonl and no store (a run of trainer logs only): nothing to count or to check,
  // which "0 rollouts, 0 alerts" would read as counted and clean.
  const nothing = !r.has_rollout_records && !r.has_store;
  return {
    partial: false,
    rollouts: nothing ? "no rollout files" : r.rollouts.toLocaleString("en-US"),
    masked: r.rollouts ? `${r.masked} (${(r.masked_fraction * 100).toFixed(1)}%)` : "—",
    warnings: r.rollouts ? share(r.severity.trained_with_warnings) : "—",
    ...rewardCells(r, false),
    alerts: nothing && r.alerts === 0 ? "—" : String(r.alerts),
  };
}
