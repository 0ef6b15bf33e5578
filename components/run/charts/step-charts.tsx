"use client";
// The run's per-step series, one quantity per value axis: rewards, masked share, delivered share,
// calls per rollout (a mean), routed experts' fallback and side / quarantined / failed calls
// (totals) each get a chart of their own, so a total of hundreds never flattens a mean of a few.
// A click on a step lists the step's rollouts in the table.
import type { RunHealth, StepPoint } from "@/lib/schema";
import { chartBucketQuery } from "@/lib/view";
import { MASKED, NEUTRAL, NEUTRAL_2, WARNING } from "./colours";
import { StepChart, type StepChartProps, type StepRow } from "./step-chart";
import type { BucketLink } from "./use-bucket-link";
import { curveSource } from "@/lib/health/pure";

const RECORD_STEP = "step (rollout records)";
/** A share as a percentage, with the digits its size needs (an axis of 0–1% ticks at 0.25%). */
const percent = (v: number) => {
  const p = Math.abs(v * 100);
  return `${(v * 100).toFixed(p === 0 || p >= 10 ? 0 : p < 1 ? 2 : 1)}%`;
};
const fixed = (digits: number) => (v: number) => v.toFixed(digits);
const whole = (v: number) => Math.round(v).toLocaleString("en-US");

type Spec = Omit<StepChartProps, "link" | "query" | "data" | "stepAxis"> & {
  row: (p: StepPoint) => Record<string, number | null>;
};

const SPECS: Spec[] = [
  {
    id: "per-step-reward",
    title: "Mean reward per step",
    valueAxis: "mean reward",
    format: fixed(3),
    series: [{ key: "reward_mean", label: "mean reward", color: NEUTRAL }],
    row: (p) => ({ reward_mean: p.reward_mean }),
  },
  {
    id: "per-step",
    title: "Masked rollouts per step",
    valueAxis: "masked, % of the step's rollouts",
    format: percent,
    share: true,
    series: [{ key: "masked_fraction", label: "masked", color: MASKED }],
    row: (p) => ({ masked_fraction: p.masked_fraction }),
  },
  {
    id: "per-step-delivered",
    title: "Delivered fraction per step",
    valueAxis: "mean delivered, % of generated tokens",
    format: percent,
    share: true,
    series: [{ key: "delivered_mean", label: "mean delivered fraction", color: NEUTRAL }],
    row: (p) => ({ delivered_mean: p.delivered_mean }),
  },
  {
    id: "per-step-calls",
    title: "Captured calls per rollout, per step",
    valueAxis: "captured calls per rollout (mean)",
    format: fixed(1),
    series: [{ key: "calls_mean", label: "mean captured calls per rollout", color: NEUTRAL }],
    row: (p) => ({ calls_mean: p.calls_mean }),
  },
  {
    // Hidden in runs without routes (no value at any step).
    id: "per-step-expert-fallback",
    title: "Routed experts that fell back, per step",
    valueAxis: "fallback, % of expected routes",
    format: percent,
    share: true,
    series: [{ key: "expert_fallback_fraction", label: "expert fallback", color: WARNING }],
    row: (p) => ({ expert_fallback_fraction: p.expert_fallback_fraction }),
  },
  {
    id: "per-step-call-totals",
    title: "Side, quarantined and failed calls per step",
    valueAxis: "calls (sum over the step's rollouts)",
    format: whole,
    series: [
      { key: "side_calls", label: "side calls", color: NEUTRAL },
      { key: "quarantined", label: "quarantined", color: NEUTRAL_2 },
      { key: "failed_calls", label: "failed calls", color: WARNING },
    ],
    row: (p) => ({
      side_calls: p.side_calls,
      quarantined: p.quarantined,
      failed_calls: p.failed_calls,
    }),
  },
];

/** A series with no value at any step (no rewards, nothing delivered) has no chart. */
function hasValues(rows: StepRow[], spec: Spec): boolean {
  return spec.series.some((s) => rows.some((r) => r[s.key] != null));
}

export function StepCharts({ h, link }: { h: RunHealth; link: BucketLink }) {
  const steps = new Set(h.per_step.map((p) => p.step));
  // A training step lists rollouts only where the records have that step.
  const query = (step: number) => (steps.has(step) ? chartBucketQuery("step", String(step)) : null);
  const perStep = h.per_step.length > 1 ? SPECS : [];
  return (
    <>
      {perStep.map(({ row, ...spec }) => {
        const data = h.per_step.map((p) => ({ step: p.step, ...row(p) }));
        return hasValues(data, { row, ...spec }) ? (
          <StepChart
            key={spec.id}
            {...spec}
            data={data}
            stepAxis={RECORD_STEP}
            query={query}
            link={link}
          />
        ) : null;
      })}
      {h.curve && h.curve.points.length > 0 && (
        <StepChart
          id="metrics-reward"
          title={`Reward per training step (${curveSource(h.curve.steps)}: ${h.curve.tag} from ${h.curve.sources.join(", ")})`}
          data={h.curve.points}
          series={[{ key: "reward", label: "reward (training curve)", color: NEUTRAL }]}
          valueAxis="reward (training curve)"
          stepAxis="training step"
          format={fixed(3)}
          query={query}
          link={link}
          gaps
          wide
        />
      )}
    </>
  );
}
