"use client";
// The chosen scalar per step of both sides (raw faint, smoothed bold with the URL's `smooth`
// weight, TensorBoard/W&B style). A side of several seeds draws its per-step mean over them, with
// a shaded band of ± one sd across its seeds. Smoothing is only drawn, never tested.
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Label,
  Legend,
  Line,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { TrainingComparison } from "@/lib/schema";
import { axisTick, tickInterval } from "@/components/run/charts/chart-frame";
import {
  A,
  B,
  caption,
  GRID,
  MARGIN,
  StepTip,
  TITLE,
  type TipRow,
  useSmoothed,
} from "./chart-parts";

export interface ChartSide {
  label: string;
  /** Runs on the side: several draw a mean line and a band. */
  n: number;
}

const seedsWord = (n: number) => (n > 1 ? ` (mean of ${n} seeds)` : "");

export function RewardChart({
  t,
  a,
  b,
  scalar,
}: {
  t: TrainingComparison;
  a: ChartSide;
  b: ChartSide;
  scalar: string;
}) {
  const s = useSmoothed(t);
  const rows: TipRow[] = [
    { name: a.label, color: A, raw: "a", smooth: "a_smooth", band: "a_band" },
    { name: b.label, color: B, raw: "b", smooth: "b_smooth", band: "b_band" },
  ];
  const bands = [
    { key: "a_band", side: a, color: A, has: !!t.band?.a },
    { key: "b_band", side: b, color: B, has: !!t.band?.b },
  ].filter((x) => x.has);
  return (
    <figure
      className="chart card"
      data-testid="chart-reward"
      data-scalar={scalar}
      data-bands={bands.length}
    >
      <figcaption>
        <span className="mono">{scalar}</span> per step ({caption(s.w)})
        {bands.length > 0 && (
          <span data-testid="chart-band-legend">
            ; lines are each side&apos;s mean over its seeds, shaded: mean ± 1 sd across the
            side&apos;s seeds at each step
          </span>
        )}
      </figcaption>
      <ComposedChart width={900} height={280} data={s.points} margin={MARGIN}>
        <CartesianGrid stroke={GRID} vertical={false} />
        <XAxis dataKey="step" tick={axisTick} height={36} interval={tickInterval(s.points.length)}>
          <Label value="step" position="insideBottom" offset={0} style={TITLE} />
        </XAxis>
        <YAxis tick={axisTick} domain={["auto", "auto"]} width={64} interval={0}>
          <Label value={scalar} angle={-90} position="insideLeft" style={TITLE} />
        </YAxis>
        <Tooltip
          content={({ label }) => <StepTip point={s.byStep.get(Number(label))} rows={rows} />}
        />
        <Legend />
        {bands.map((x) => (
          <Area
            key={x.key}
            dataKey={x.key}
            name={`${x.side.label} ± 1 sd across ${x.side.n} seeds`}
            stroke="none"
            fill={x.color}
            fillOpacity={0.25}
            legendType="square"
            isAnimationActive={false}
            activeDot={false}
          />
        ))}
        {rows.map((r) => (
          <Line
            key={r.raw}
            dataKey={r.raw}
            name={`${r.name} (raw)`}
            stroke={r.color}
            strokeOpacity={0.3}
            dot={false}
            isAnimationActive={false}
            legendType="none"
          />
        ))}
        {rows.map((r, i) => (
          <Line
            key={r.smooth}
            dataKey={r.smooth}
            name={`${r.name}${seedsWord((i === 0 ? a : b).n)}`}
            stroke={r.color}
            strokeWidth={2.5}
            dot={false}
            isAnimationActive={false}
          />
        ))}
      </ComposedChart>
    </figure>
  );
}
