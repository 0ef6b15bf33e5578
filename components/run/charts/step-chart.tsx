"use client";
// A line chart over steps with one quantity on its one value axis (series of the same unit share
// it). Hover shows every series' value at the step; a click on a step lists the step's rollouts
// in the table, where the table can list them.
import {
  CartesianGrid,
  Line,
  LineChart,
  Tooltip,
  XAxis,
  YAxis,
  type AxisDomain,
  type MouseHandlerDataParam,
} from "recharts";

import {
  ChartFrame,
  GRID_STROKE,
  PLOT_HEIGHT,
  tickInterval,
  TooltipBox,
  axisTick,
} from "./chart-frame";
import type { BucketLink } from "./use-bucket-link";

export interface StepSeries {
  key: string;
  label: string;
  color: string;
}

export type StepRow = { step: number } & Record<string, number | null>;

export interface StepChartProps {
  id: string;
  title: string;
  data: StepRow[];
  series: StepSeries[];
  /** The value axis's title with its unit ("masked, % of the step's rollouts"). */
  valueAxis: string;
  /** The step axis's title ("step (rollout records)"). */
  stepAxis: string;
  /** A value as the axis and the hover box print it ("12.5%"). */
  format: (v: number) => string;
  /** The table query of a step's rollouts; null where the table cannot list them. */
  query: (step: number) => string | null;
  link: BucketLink;
  /** A null value breaks the line (a NaN in metrics.jsonl) instead of being bridged. */
  gaps?: boolean;
  wide?: boolean;
  /** The value axis starts at 0 (a share), not at the data's minimum. */
  fromZero?: boolean;
  /** A share (0 … 1): the axis runs from 0 to at most 100%, even when every step has one value. */
  share?: boolean;
}

/** The value axis: recharts' own for a constant series spans 0–400% (or −100–300% at 100%). */
function valueDomain(props: StepChartProps): AxisDomain {
  if (props.share) return [0, (max: number) => Math.min(1, Math.max(max, 0.01))];
  if (props.fromZero) return [0, (max: number) => Math.max(max, 0.01)];
  return ["auto", "auto"];
}

export function StepChart(props: StepChartProps) {
  const { data, link } = props;
  const rowAt = (index: unknown): StepRow | undefined =>
    index === undefined ? undefined : data[Number(index)];
  const open = (state: MouseHandlerDataParam) => {
    const row = rowAt(state.activeTooltipIndex);
    const query = row ? props.query(row.step) : null;
    if (query) link.open(query);
  };
  const tooltip = (index: unknown) => {
    const row = rowAt(index);
    if (!row) return null;
    const lines = props.series.map((s) => {
      const v = row[s.key];
      return { label: s.label, value: v == null ? "no value" : props.format(v), color: s.color };
    });
    const clickable = props.query(row.step) !== null;
    return (
      <TooltipBox
        title={`step ${row.step}`}
        lines={lines}
        hint={clickable ? "click to list this step's rollouts in the table" : null}
      />
    );
  };
  return (
    <ChartFrame
      id={props.id}
      title={props.title}
      x={props.stepAxis}
      y={props.valueAxis}
      wide={props.wide}
      plotHeight={PLOT_HEIGHT}
      legend={
        props.series.length > 1 && (
          <div className="legend-row small">
            {props.series.map((s) => (
              <span key={s.key}>
                <span style={{ color: s.color }}>●</span>
                {"\u00a0"}
                {s.label}
              </span>
            ))}
          </div>
        )
      }
    >
      <LineChart
        responsive
        width="100%"
        height={PLOT_HEIGHT}
        data={data}
        margin={{ top: 10, right: 12, left: 0, bottom: 0 }}
        cursor={data.some((r) => props.query(r.step) !== null) ? "pointer" : undefined}
        onClick={open}
      >
        <CartesianGrid stroke={GRID_STROKE} vertical={false} />
        <XAxis dataKey="step" tick={axisTick} interval={tickInterval(data.length)} />
        <YAxis
          tick={axisTick}
          interval={0}
          domain={valueDomain(props)}
          tickFormatter={(v: number) => props.format(v)}
          width={48}
        />
        <Tooltip content={(p) => tooltip(p.activeIndex)} isAnimationActive={false} />
        {props.series.map((s) => (
          <Line
            key={s.key}
            dataKey={s.key}
            name={s.label}
            stroke={s.color}
            dot={data.length <= 30}
            isAnimationActive={false}
            connectNulls={!props.gaps}
          />
        ))}
      </LineChart>
    </ChartFrame>
  );
}
