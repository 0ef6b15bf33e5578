// The home page's words for a run's numbers. While the index is still summarising, a count is
// partial ("16 of 40 so far") and masked, reward and per-class counts are not known ("—"): nothing
// says 0 or a final number before it is. Rendering the cells is components/runs' job.
import type { RunOverview } from "@/lib/schema/api-runs";

export interface OverviewCells {
  /** The run's numbers are still partial: the cells carry the pending class. */
  partial: boolean;
  rollouts: string;
  masked: string;
  reward: string;
  alerts: string;
}

/** The index has not summarised every rollout yet (running, or rollouts still pending). */
export function isPartial(r: RunOverview): boolean {
  return r.indexing.running || r.severity.pending > 0;
}

export function overviewCells(r: RunOverview): OverviewCells {
  if (isPartial(r)) {
    const total = Math.max(r.indexing.total, r.rollouts + r.severity.pending);
    return {
      partial: true,
      rollouts: `${r.rollouts.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} so far`,
      masked: "—",
      reward: "—",
      alerts: r.alerts > 0 ? `${r.alerts} so far` : "—",
    };
  }
  return {
    partial: false,
    rollouts: r.rollouts.toLocaleString("en-US"),
    masked: r.rollouts ? `${r.masked} (${(r.masked_fraction * 100).toFixed(1)}%)` : "—",
    reward: r.reward_mean === null ? "—" : r.reward_mean.toFixed(3),
    alerts: String(r.alerts),
  };
}
