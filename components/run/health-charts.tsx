"use client";
// Health charts (recharts) with their values printed on the bars, so a glance (and a test) reads
// numbers, not shapes. Fixed sizes: no layout measuring, stable across browsers.
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  LabelList,
  Line,
  LineChart,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { Count, RunHealth } from "@/lib/schema/api-runs";
import { SEVERITY_LABEL, SEVERITY_ORDER, SEVERITY_PALETTE } from "@/lib/severity/palette";
import type { SeverityState } from "@/lib/severity/reasons";
import { reasonTitleSeverity } from "@/lib/health/reason-severity";
import { maskReasonShort } from "@/lib/view/mask-reasons";
import { plural } from "@/lib/view/plural";

const W = 340,
  H = 190;
const SEVERITY_OF = new Map<string, SeverityState>(SEVERITY_ORDER.map((s) => [s, s]));
const AXIS = { fill: "#9aa3b2", fontSize: 11 };

/** `colors` gives a bar its own colour by its (unlabelled) key: the severity classes' palette. */
function CountChart({
  id,
  title,
  data,
  color = "#6ea8fe",
  colors,
  label,
  horizontal = false,
}: {
  id: string;
  title: string;
  data: Count[];
  color?: string;
  colors?: (k: string) => string;
  label?: (k: string) => string;
  /** Bars across, labels on the left: for long labels that would overlap on an x axis. */
  horizontal?: boolean;
}) {
  const rows = data.map((d) => ({ ...d, key: label ? label(d.key) : d.key }));
  return (
    <figure className="chart card" data-testid={`chart-${id}`}>
      <figcaption>{title}</figcaption>
      {data.length === 0 ? (
        <div className="empty small">none</div>
      ) : horizontal ? (
        <BarChart
          width={W}
          height={Math.max(H, 28 * rows.length + 24)}
          data={rows}
          layout="vertical"
          margin={{ top: 4, right: 28, left: 0, bottom: 0 }}
        >
          <CartesianGrid stroke="#2a2f3a" horizontal={false} />
          <XAxis type="number" allowDecimals={false} tick={AXIS} />
          <YAxis type="category" dataKey="key" tick={AXIS} interval={0} width={150} />
          <Tooltip contentStyle={{ background: "#171a21", border: "1px solid #2a2f3a" }} />
          <Bar dataKey="count" fill={color} isAnimationActive={false}>
            {colors && data.map((d) => <Cell key={d.key} fill={colors(d.key)} />)}
            <LabelList dataKey="count" position="right" fill="#e6e8ee" fontSize={11} />
          </Bar>
        </BarChart>
      ) : (
        <BarChart
          width={W}
          height={H}
          data={rows}
          margin={{ top: 18, right: 8, left: -18, bottom: 0 }}
        >
          <CartesianGrid stroke="#2a2f3a" vertical={false} />
          <XAxis dataKey="key" tick={AXIS} interval={0} />
          <YAxis allowDecimals={false} tick={AXIS} />
          <Tooltip contentStyle={{ background: "#171a21", border: "1px solid #2a2f3a" }} />
          <Bar dataKey="count" fill={color} isAnimationActive={false}>
            {colors && data.map((d) => <Cell key={d.key} fill={colors(d.key)} />)}
            <LabelList dataKey="count" position="top" fill="#e6e8ee" fontSize={11} />
          </Bar>
        </BarChart>
      )}
    </figure>
  );
}

/** `gaps`: a null value breaks the line (a NaN in metrics.jsonl) instead of being bridged. */
function StepChart({
  id,
  title,
  data,
  keys,
  gaps = false,
}: {
  id: string;
  title: string;
  data: Array<Record<string, number | null>>;
  keys: Array<[key: string, color: string, label: string]>;
  gaps?: boolean;
}) {
  return (
    <figure className="chart card wide" data-testid={`chart-${id}`}>
      <figcaption>{title}</figcaption>
      <LineChart
        width={W * 2 + 12}
        height={H}
        data={data}
        margin={{ top: 10, right: 12, left: -12, bottom: 0 }}
      >
        <CartesianGrid stroke="#2a2f3a" vertical={false} />
        <XAxis dataKey="step" tick={AXIS} />
        <YAxis tick={AXIS} domain={["auto", "auto"]} />
        <Tooltip contentStyle={{ background: "#171a21", border: "1px solid #2a2f3a" }} />
        {keys.map(([k, color, label]) => (
          <Line
            key={k}
            dataKey={k}
            name={label}
            stroke={color}
            dot={data.length <= 30}
            isAnimationActive={false}
            connectNulls={!gaps}
          />
        ))}
      </LineChart>
      <div className="legend-row small">
        {keys.map(([k, color, label]) => (
          <span key={k} style={{ color }}>
            ● {label}
          </span>
        ))}
      </div>
    </figure>
  );
}

export function HealthCharts({ h }: { h: RunHealth }) {
  // The three classes (and pending while indexing), each in its palette colour: masked is never green.
  const verdicts: Count[] = SEVERITY_ORDER.filter(
    (s) => s !== "pending" || h.severity.pending > 0,
  ).map((s) => ({ key: s, count: h.severity[s] }));
  const severityColour = (k: string) => SEVERITY_PALETTE[SEVERITY_OF.get(k) ?? "pending"].chart;
  const severityLabel = (k: string) => SEVERITY_LABEL[SEVERITY_OF.get(k) ?? "pending"];
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
          label="mean reward"
          value={h.reward_mean === null ? "—" : h.reward_mean.toFixed(3)}
        />
        <Kpi
          id="quarantined"
          label="quarantined calls"
          value={`${h.quarantined_calls} in ${plural(h.rollouts_with_quarantine, "rollout")}`}
        />
        <Kpi id="store" label="from token store" value={`${h.from_store} of ${h.rollouts}`} />
      </div>
      <div className="charts">
        <CountChart
          id="verdicts"
          title="Verdicts"
          data={verdicts}
          colors={severityColour}
          label={severityLabel}
        />
        <CountChart
          id="severity-reasons"
          title="Why not simply trained (warnings and mask reasons)"
          data={h.severity_reasons}
          colors={(k) => SEVERITY_PALETTE[reasonTitleSeverity(k)].chart}
          horizontal
        />
        <CountChart
          id="mask-reasons"
          title="Mask reasons"
          data={h.mask_reasons}
          color={SEVERITY_PALETTE.masked.chart}
          label={maskReasonShort}
          horizontal
        />
        <CountChart
          id="delivered"
          title="Delivered fraction (rollouts per bucket)"
          data={h.delivered_fraction}
        />
        <CountChart id="chains" title="Chains per rollout" data={h.chains_per_rollout} />
        <CountChart id="roots" title="Roots per rollout" data={h.roots_per_rollout} />
        <CountChart id="calls" title="Calls per rollout" data={h.calls_per_rollout} />
        <CountChart
          id="side-calls"
          title="Side calls excluded, by reason"
          data={h.side_calls_by_reason}
          color="#f5b14c"
          label={(k) => k.replace("_", " ")}
        />
        <CountChart
          id="fallbacks"
          title="Parent-link fallbacks, by reason"
          data={h.fallbacks_by_reason}
          color="#f5b14c"
          label={(k) => k.replace(/_/g, " ")}
        />
        <CountChart
          id="status"
          title="HTTP status of model calls"
          data={h.status_codes}
          color="#6ea8fe"
        />
        <CountChart
          id="error-categories"
          title="Model-call error categories"
          data={h.error_categories}
          color="#f26d6d"
        />
        {h.per_step.length > 1 && (
          <StepChart
            id="per-step"
            title="Per step (rollout records)"
            data={h.per_step.map((p) => ({
              step: p.step,
              masked_fraction: p.masked_fraction,
              reward_mean: p.reward_mean,
              delivered_mean: p.delivered_mean,
            }))}
            keys={[
              ["reward_mean", "#4cc38a", "mean reward"],
              ["masked_fraction", SEVERITY_PALETTE.masked.chart, "masked fraction"],
              ["delivered_mean", "#6ea8fe", "mean delivered fraction"],
            ]}
          />
        )}
        {h.per_step.length > 1 && (
          <StepChart
            id="per-step-calls"
            title="Per step: calls, side calls, quarantined, failed calls"
            data={h.per_step.map((p) => ({
              step: p.step,
              calls_mean: p.calls_mean,
              side_calls: p.side_calls,
              quarantined: p.quarantined,
              failed_calls: p.failed_calls,
            }))}
            keys={[
              ["calls_mean", "#6ea8fe", "mean calls"],
              ["side_calls", "#f5b14c", "side calls"],
              ["quarantined", "#c586c0", "quarantined"],
              ["failed_calls", "#f26d6d", "failed calls"],
            ]}
          />
        )}
        {h.metrics.length > 0 && (
          <StepChart
            id="metrics-reward"
            title="Reward per training step (metrics.jsonl)"
            data={h.metrics}
            keys={[["reward", "#4cc38a", "reward"]]}
            gaps
          />
        )}
      </div>
    </>
  );
}

function Kpi({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div className="kpi card" data-testid={`kpi-${id}`}>
      <div className="muted small">{label}</div>
      <div className="kpi-value">{value}</div>
    </div>
  );
}
