"use client";
// The run's health as bar charts of counts, each bar listing its rollouts in the table when
// clicked (lib/view/rollout-nav chartBucketQuery says which query lists exactly them).
import type { Count, RunHealth } from "@/lib/schema";
import { reasonTitleSeverity } from "@/lib/health/pure";
import {
  SEVERITY_LABEL,
  SEVERITY_ORDER,
  SEVERITY_PALETTE,
  type SeverityState,
} from "@/lib/severity";
import { maskReasonShort, chartBucketQuery, type BucketChart } from "@/lib/view";
import { plural } from "@/lib/text";
import { MASKED, NEUTRAL, WARNING } from "./colours";
import { CountChart, type CountChartProps } from "./count-chart";
import type { BucketLink } from "./use-bucket-link";

const SEVERITY_OF = new Map<string, SeverityState>(SEVERITY_ORDER.map((s) => [s, s]));
const rollouts = (n: number) => plural(n, "rollout");
const calls = (n: number) => plural(n, "call");
const modelCalls = (n: number) => plural(n, "model call");
const words = (k: string) => k.replace(/_/g, " ");

type Spec = Omit<CountChartProps, "link" | "query" | "data"> & {
  chart: BucketChart;
  data: Count[];
  /** The one line an empty chart is instead of a panel ("no side calls"). */
  none: string;
};

/** Nothing to draw: no bucket, or every bucket at 0. */
const isEmpty = (s: Spec) => s.data.every((d) => d.count === 0);

function specs(h: RunHealth): Spec[] {
  // The three classes (and pending while indexing), each in its palette colour: masked is never green.
  const verdicts: Count[] = SEVERITY_ORDER.filter(
    (s) => s !== "pending" || h.severity.pending > 0,
  ).map((s) => ({ key: s, count: h.severity[s] }));
  const severity = (k: string) => SEVERITY_OF.get(k) ?? "pending";
  const perRollout = { valueAxis: "rollouts", unit: rollouts, color: () => NEUTRAL };
  return [
    {
      chart: "verdicts",
      id: "verdicts",
      none: "no rollouts",
      title: "Verdicts",
      data: verdicts,
      bucketAxis: "verdict (severity model)",
      valueAxis: "rollouts",
      unit: rollouts,
      color: (k) => SEVERITY_PALETTE[severity(k)].chart,
      label: (k) => SEVERITY_LABEL[severity(k)],
    },
    {
      chart: "severity-reasons",
      id: "severity-reasons",
      none: "no warnings and no mask reasons",
      title: "Why not simply trained (warnings and mask reasons)",
      data: h.severity_reasons,
      bucketAxis: "reason",
      valueAxis: "rollouts",
      unit: rollouts,
      color: (k) => SEVERITY_PALETTE[reasonTitleSeverity(k)].chart,
      horizontal: true,
    },
    {
      chart: "mask-reasons",
      id: "mask-reasons",
      none: "no masked rollouts",
      title: "Mask reasons",
      data: h.mask_reasons,
      bucketAxis: "mask reason",
      valueAxis: "rollouts",
      unit: rollouts,
      color: () => MASKED,
      label: maskReasonShort,
      horizontal: true,
    },
    {
      chart: "delivered",
      id: "delivered",
      none: "no delivered fractions (no generated tokens)",
      title: "Delivered fraction (rollouts per bucket)",
      data: h.delivered_fraction,
      bucketAxis: "generated tokens delivered (bucket from, 0.1 wide)",
      ...perRollout,
      // Under 1.0 the main chain left generated tokens out: the severity model's warning.
      color: (k) => (k === "1.0" ? NEUTRAL : WARNING),
    },
    {
      chart: "chains",
      id: "chains",
      none: "no chains",
      title: "Chains per rollout",
      data: h.chains_per_rollout,
      bucketAxis: "chains",
      ...perRollout,
    },
    {
      chart: "roots",
      id: "roots",
      none: "no roots",
      title: "Roots per rollout",
      data: h.roots_per_rollout,
      bucketAxis: "roots",
      ...perRollout,
    },
    {
      chart: "calls",
      id: "calls",
      none: "no captured calls",
      title: "Captured calls per rollout",
      data: h.calls_per_rollout,
      bucketAxis: "captured calls",
      ...perRollout,
    },
    {
      chart: "side-calls",
      id: "side-calls",
      none: "no side calls",
      title: "Side calls excluded, by reason",
      data: h.side_calls_by_reason,
      bucketAxis: "found by",
      valueAxis: "side calls",
      unit: (n) => plural(n, "side call"),
      color: () => NEUTRAL,
      label: words,
      hint: "click to list the rollouts with such side calls",
    },
    {
      chart: "fallbacks",
      id: "fallbacks",
      none: "no parent-link fallbacks",
      title: "Parent-link fallbacks, by reason",
      data: h.fallbacks_by_reason,
      bucketAxis: "fallback",
      valueAxis: "calls",
      unit: calls,
      color: () => NEUTRAL,
      label: words,
      hint: "click to list the rollouts with such calls",
    },
    {
      chart: "status",
      id: "status",
      none: "no HTTP statuses recorded",
      title: "HTTP status of model calls",
      data: h.status_codes,
      bucketAxis: "HTTP status",
      valueAxis: "model calls",
      unit: modelCalls,
      // A failed call leaves the rollout trained with a warning (cut short), never masked.
      color: (k) => (Number(k) >= 400 ? WARNING : NEUTRAL),
      hint: "click to list the rollouts with such calls",
    },
    {
      chart: "error-categories",
      id: "error-categories",
      none: "no model-call errors",
      title: "Model-call error categories",
      data: h.error_categories,
      bucketAxis: "error category",
      valueAxis: "model calls",
      unit: modelCalls,
      color: () => WARNING,
      hint: "click to list the rollouts with such calls",
    },
  ];
}

export function CountCharts({ h, link }: { h: RunHealth; link: BucketLink }) {
  return specs(h)
    .filter((s) => !isEmpty(s))
    .map(({ chart, ...spec }) => (
      <CountChart key={spec.id} {...spec} link={link} query={(k) => chartBucketQuery(chart, k)} />
    ));
}

/** The charts with nothing to draw, each one line of text under its title, not an empty panel. */
export function EmptyCountCharts({ h }: { h: RunHealth }) {
  const empty = specs(h).filter(isEmpty);
  if (empty.length === 0) return null;
  return (
    <ul className="charts-empty muted small" data-testid="charts-empty">
      {empty.map((s) => (
        <li key={s.id} data-testid={`chart-${s.id}`} data-empty="true" title={s.title}>
          {s.none}
        </li>
      ))}
    </ul>
  );
}
