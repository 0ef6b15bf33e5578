"use client";
// A bar chart of counts per key (a health bucket), its values printed on the bars and on hover.
// Each bar is a link to the rollouts table filtered to exactly the rollouts it counts; a click
// anywhere in a bar's band opens it too, so a short bar is as easy to hit as a long one.
import type { MouseEvent } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  LabelList,
  Tooltip,
  XAxis,
  YAxis,
  type BarShapeProps,
  type MouseHandlerDataParam,
} from "recharts";
import type { Count } from "@/lib/schema";
import {
  AXIS_TICK,
  ChartFrame,
  GRID_STROKE,
  PLOT_HEIGHT,
  TooltipBox,
  VALUE_LABEL,
  axisTick,
} from "./chart-frame";
import type { BucketLink } from "./use-bucket-link";

interface Row {
  key: string;
  label: string;
  count: number;
  color: string;
  /** The table query of the bar's rollouts; null where the table cannot list them. */
  query: string | null;
}

export interface CountChartProps {
  id: string;
  title: string;
  data: Count[];
  /** The buckets' axis title ("calls per rollout") and the counts' ("rollouts", with its unit). */
  bucketAxis: string;
  valueAxis: string;
  color: (key: string) => string;
  label?: (key: string) => string;
  /** A count in words for the hover box ("3 rollouts", "12 calls"). */
  unit: (count: number) => string;
  query: (key: string) => string | null;
  /** What a click lists, for the hover box ("click to list these rollouts"). */
  hint?: string;
  link: BucketLink;
  /** Bars across, labels on the left: for long labels that would overlap on an x axis. */
  horizontal?: boolean;
}

/** A plain left click stays on the page; a modified one (new tab, new window) follows the href. */
const plainClick = (e: MouseEvent) =>
  e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

function indexOf(state: MouseHandlerDataParam): number | null {
  const i = Number(state.activeTooltipIndex);
  return state.activeTooltipIndex === undefined || !Number.isInteger(i) ? null : i;
}

export function CountChart(props: CountChartProps) {
  const { link, horizontal = false } = props;
  const rows: Row[] = props.data.map((d) => ({
    key: d.key,
    label: props.label ? props.label(d.key) : d.key,
    count: d.count,
    color: props.color(d.key),
    query: props.query(d.key),
  }));
  const anyShown = rows.some((r) => r.query !== null && link.shown(r.query));
  const hint = props.hint ?? "click to list these rollouts in the table";
  const openAt = (state: MouseHandlerDataParam) => {
    const row = rows[indexOf(state) ?? -1];
    if (row?.query && row.count > 0) link.open(row.query);
  };
  const shape = (bar: BarShapeProps) => {
    const row = rows[bar.index];
    const dimmed = anyShown && !(row?.query && link.shown(row.query));
    const rect = (
      <rect
        x={bar.x}
        y={bar.y}
        width={Math.max(0, bar.width)}
        height={Math.max(0, bar.height)}
        fill={row?.color}
        fillOpacity={dimmed ? 0.4 : 1}
      />
    );
    if (!row?.query || row.count === 0) return rect;
    const query = row.query;
    return (
      <a
        href={link.href(query)}
        aria-label={`${row.label}: ${props.unit(row.count)} (list the rollouts in the table)`}
        data-testid="chart-bar"
        data-key={row.key}
        data-shown={link.shown(query) ? "true" : undefined}
        onClick={(e) => {
          e.stopPropagation(); // the chart's own click (the band) would open it a second time
          if (!plainClick(e)) return;
          e.preventDefault();
          link.open(query);
        }}
      >
        {rect}
      </a>
    );
  };
  const tooltip = (activeIndex: unknown) => {
    const row = rows[Number(activeIndex)];
    if (!row) return null;
    const clickable = row.query !== null && row.count > 0;
    return (
      <TooltipBox
        title={`${props.bucketAxis}: ${row.label}`}
        lines={[
          { label: props.valueAxis, value: row.count.toLocaleString("en-US"), color: row.color },
        ]}
        hint={clickable ? hint : null}
      />
    );
  };
  const category = { dataKey: "label", tick: AXIS_TICK, interval: 0 } as const;
  const plotHeight = horizontal ? Math.max(PLOT_HEIGHT, 28 * rows.length + 24) : PLOT_HEIGHT;
  const value = { allowDecimals: false, tick: axisTick, interval: 0 } as const;
  // Room right of the longest bar for its count label: some 7 px a digit.
  const digits = String(rows.reduce((m, r) => Math.max(m, r.count), 0)).length;
  const labelRoom = Math.max(28, 12 + 7 * digits);
  return (
    <ChartFrame
      id={props.id}
      title={props.title}
      x={horizontal ? props.valueAxis : props.bucketAxis}
      y={horizontal ? props.bucketAxis : props.valueAxis}
      plotHeight={plotHeight}
    >
      {rows.length === 0 ? (
        <div className="empty small">none</div>
      ) : (
        <BarChart
          responsive
          width="100%"
          height={plotHeight}
          data={rows}
          layout={horizontal ? "vertical" : "horizontal"}
          margin={
            horizontal
              ? { top: 4, right: labelRoom, left: 0, bottom: 0 }
              : { top: 18, right: 8, left: -18, bottom: 0 }
          }
          cursor={rows.some((r) => r.query !== null) ? "pointer" : undefined}
          onClick={openAt}
        >
          <CartesianGrid stroke={GRID_STROKE} horizontal={!horizontal} vertical={horizontal} />
          {horizontal ? (
            <>
              <XAxis type="number" {...value} />
              <YAxis type="category" {...category} width={150} />
            </>
          ) : (
            <>
              <XAxis {...category} />
              <YAxis {...value} />
            </>
          )}
          <Tooltip
            cursor={{ fill: "var(--chart-cursor)" }}
            content={(p) => tooltip(p.activeIndex)}
            isAnimationActive={false}
          />
          <Bar dataKey="count" isAnimationActive={false} shape={shape}>
            <LabelList
              dataKey="count"
              position={horizontal ? "right" : "top"}
              fill={VALUE_LABEL}
              fontSize={11}
            />
          </Bar>
        </BarChart>
      )}
    </ChartFrame>
  );
}
