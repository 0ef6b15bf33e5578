"use client";
// The signal ledger per step as stacked bars (lib/view/ledger): a bar is a step's captured tokens,
// each segment a stage or a loss by name. A click on a segment lists the rollouts behind it at
// that step in the table; hover shows every segment's tokens and share.
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { LEDGER_SEGMENTS, segmentQuery, type LedgerRow, type SegmentKey } from "@/lib/view";
import {
  ChartFrame,
  GRID_STROKE,
  PLOT_HEIGHT,
  tickInterval,
  TooltipBox,
  axisTick,
} from "./chart-frame";
import { MASKED, NEUTRAL, NEUTRAL_2, NEUTRAL_3, WARNING } from "./colours";
import type { BucketLink } from "./use-bucket-link";

export const SEGMENT_COLOURS: Record<SegmentKey, string> = {
  with_advantage: "var(--sev-trained-chart)",
  equal_reward: "var(--ledger-equal)",
  in_loss_mask: "var(--ledger-in-loss)",
  outside_loss_mask: NEUTRAL_2,
  delivered: NEUTRAL,
  masked: MASKED,
  branches: NEUTRAL_3,
  quarantined: WARNING,
  retries_dropped: "var(--ledger-retries)",
  side_calls: "var(--ledger-side)",
};

const tokens = (v: number) => v.toLocaleString("en-US");
const compact = (v: number) =>
  v >= 1e6
    ? `${(v / 1e6).toFixed(1)}M`
    : v >= 1e3
      ? `${(v / 1e3).toFixed(v < 1e4 ? 1 : 0)}k`
      : String(v);

export function LedgerChart({
  rows,
  link,
  groupField,
}: {
  rows: LedgerRow[];
  link: BucketLink;
  /** The advantage stage's grouping: its equal-reward segment opens the group view by it. */
  groupField: string;
}) {
  const shown = LEDGER_SEGMENTS.filter((g) => rows.some((r) => r[g.key] > 0));
  const tooltip = (index: unknown) => {
    const row = rows[Number(index)];
    if (!row) return null;
    const lines = shown
      .filter((g) => row[g.key] > 0)
      .reverse()
      .map((g) => ({
        label: g.label,
        value: `${tokens(row[g.key])} (${Math.round((100 * row[g.key]) / Math.max(1, row.captured))}%)`,
        color: SEGMENT_COLOURS[g.key],
      }));
    return (
      <TooltipBox
        title={`step ${row.step}: ${tokens(row.captured)} generated tokens captured`}
        lines={lines}
        hint="click a segment to list its rollouts in the table"
      />
    );
  };
  return (
    <ChartFrame
      id="signal-ledger"
      title="Signal ledger: where each step's generated tokens went"
      x="step (rollout records)"
      y="generated tokens"
      wide
      plotHeight={PLOT_HEIGHT + 40}
      legend={
        <div className="legend-row small" data-testid="ledger-legend">
          {shown.map((g) => (
            <span key={g.key}>
              <span style={{ color: SEGMENT_COLOURS[g.key] }}>●</span>
              {"\u00a0"}
              {g.label}
            </span>
          ))}
        </div>
      }
    >
      <BarChart
        responsive
        width="100%"
        height={PLOT_HEIGHT + 40}
        data={rows}
        margin={{ top: 10, right: 12, left: 0, bottom: 0 }}
      >
        <CartesianGrid stroke={GRID_STROKE} vertical={false} />
        <XAxis dataKey="step" tick={axisTick} interval={tickInterval(rows.length)} />
        <YAxis tick={axisTick} tickFormatter={compact} width={48} interval={0} />
        <Tooltip
          cursor={{ fill: "var(--chart-cursor)" }}
          content={(p) => tooltip(p.activeIndex)}
          isAnimationActive={false}
        />
        {shown.map((g) => (
          <Bar
            key={g.key}
            dataKey={g.key}
            name={g.label}
            stackId="ledger"
            fill={SEGMENT_COLOURS[g.key]}
            isAnimationActive={false}
            cursor="pointer"
            onClick={(d: { payload?: LedgerRow }) => {
              if (d.payload) link.open(segmentQuery(g, d.payload.step, groupField));
            }}
          />
        ))}
      </BarChart>
    </ChartFrame>
  );
}
