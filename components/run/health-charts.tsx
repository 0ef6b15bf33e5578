"use client";
// The run's health: headline numbers (above the rollouts table) and charts as instruments (below
// it, so the table is in the first screen). Every chart titles its axes with their units, shows
// values on hover and prints counts on the bars; a click on a bar or a step lists exactly those
// rollouts in the table above (the URL records it). A chart with nothing to draw is one line of
// text ("no side calls"), not a panel. The cards fill the width in a grid (app/globals.css `.charts`).
import type { RunHealth } from "@/lib/schema";
import { plural } from "@/lib/text";
import { CountCharts, EmptyCountCharts } from "./charts/count-charts";
import { StepCharts } from "./charts/step-charts";
import { useBucketLink } from "./charts/use-bucket-link";

/** The headline numbers (the line saying which chart bucket the table lists is the table's). */
export function HealthKpis({ h }: { h: RunHealth }) {
  return (
    <>
      <div className="kpis" data-testid="kpis">
        <Kpi id="rollouts" label="rollouts" value={h.rollouts.toLocaleString("en-US")} />
        <Kpi
          id="masked"
          label="masked"
          value={`${h.masked} (${(h.masked_fraction * 100).toFixed(1)}%)`}
        />
        <Kpi
          id="warnings"
          label="trained with warnings"
          value={h.severity.trained_with_warnings.toLocaleString("en-US")}
        />
        <Kpi id="policy" label="policy model" value={h.policy_model ?? "—"} />
        <Kpi
          id="reward"
          // The runs list gives the training curve's mean where there is one: name this one's source.
          label={h.curve?.mean != null ? "mean reward (records)" : "mean reward"}
          value={h.reward_mean === null ? "—" : h.reward_mean.toFixed(3)}
          title={
            h.curve?.mean != null
              ? `Over the ${h.rollouts.toLocaleString("en-US")} rollout records; the training curve's mean (the runs list's) is ${h.curve.mean.toFixed(3)}.`
              : undefined
          }
        />
        <Kpi
          id="quarantined"
          label="quarantined calls"
          value={
            // No token store and no capture metrics in any record: not known, never "0".
            h.rollouts_with_capture === 0 && h.rollouts > 0
              ? "not known"
              : `${h.quarantined_calls} in ${plural(h.rollouts_with_quarantine, "rollout")}`
          }
          title={
            h.rollouts_with_capture === 0
              ? "No rollout has capture evidence (a token store, or capture metrics in its record)."
              : undefined
          }
        />
        <Kpi
          id="store"
          label="from token store"
          value={`${h.from_store.toLocaleString("en-US")} of ${h.rollouts.toLocaleString("en-US")}`}
        />
      </div>
    </>
  );
}

export function HealthCharts({ h }: { h: RunHealth }) {
  const link = useBucketLink(h.run_id);
  return (
    <>
      <EmptyCountCharts h={h} />
      <div className="charts" data-testid="charts">
        <CountCharts h={h} link={link} />
        <StepCharts h={h} link={link} />
      </div>
    </>
  );
}

function Kpi(props: { id: string; label: string; value: string; title?: string }) {
  const { id, label, value, title } = props;
  return (
    <div className="kpi card" data-testid={`kpi-${id}`} title={title}>
      <div className="muted small">{label}</div>
      <div className="kpi-value">{value}</div>
    </div>
  );
}
