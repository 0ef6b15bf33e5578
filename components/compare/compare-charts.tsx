"use client";
// Compare charts: the per-step difference of the chosen scalar (a − b, raw faint, smoothed bold)
// and calls per rollout of both runs side by side; the scalar itself is ./reward-chart. Smoothing
// is only drawn: the statistics beside the charts are on raw values.
import {
  Bar,
  BarChart,
  CartesianGrid,
  Label,
  LabelList,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { EvaluationComparison, TrainingComparison } from "@/lib/schema";
import { axisTick, tickInterval } from "@/components/run/charts/chart-frame";
import {
  A,
  B,
  caption,
  DIFF,
  GRID,
  MARGIN,
  StepTip,
  TIP,
  TITLE,
  type TipRow,
  useSmoothed,
} from "./chart-parts";

export function DiffChart({ t, scalar }: { t: TrainingComparison; scalar: string }) {
  const s = useSmoothed(t);
  const rows: TipRow[] = [{ name: "a − b", color: DIFF, raw: "diff", smooth: "diff_smooth" }];
  return (
    <figure className="chart card" data-testid="chart-diff">
      <figcaption>
        Per-step difference of <span className="mono">{scalar}</span> (a − b; {caption(s.w)})
      </figcaption>
      <LineChart width={900} height={190} data={s.points} margin={MARGIN}>
        <CartesianGrid stroke={GRID} vertical={false} />
        <XAxis dataKey="step" tick={axisTick} height={36} interval={tickInterval(s.points.length)}>
          <Label value="step" position="insideBottom" offset={0} style={TITLE} />
        </XAxis>
        <YAxis tick={axisTick} width={64} interval={0}>
          <Label value={`Δ ${scalar}`} angle={-90} position="insideLeft" style={TITLE} />
        </YAxis>
        <Tooltip
          content={({ label }) => <StepTip point={s.byStep.get(Number(label))} rows={rows} />}
        />
        <ReferenceLine y={0} stroke="var(--muted)" />
        <Line
          dataKey="diff"
          name="a − b (raw)"
          stroke={DIFF}
          strokeOpacity={0.3}
          dot={false}
          isAnimationActive={false}
        />
        <Line
          dataKey="diff_smooth"
          name="a − b"
          stroke={DIFF}
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
      </LineChart>
    </figure>
  );
}

export function CallsChart({ e, a, b }: { e: EvaluationComparison; a: string; b: string }) {
  const keys = [
    ...new Set([...e.calls_a.map((c) => c.calls), ...e.calls_b.map((c) => c.calls)]),
  ].sort((x, y) => x - y);
  const count = (list: EvaluationComparison["calls_a"], k: number) =>
    list.find((c) => c.calls === k)?.count ?? 0;
  const data = keys.map((k) => ({
    calls: String(k),
    a: count(e.calls_a, k),
    b: count(e.calls_b, k),
  }));
  return (
    <figure className="chart card" data-testid="chart-calls">
      <figcaption>Calls made per rollout, captured + failed + lost (rollouts)</figcaption>
      <BarChart
        responsive
        width="100%"
        height={220}
        data={data}
        margin={{ top: 18, right: 8, left: -18, bottom: 0 }}
      >
        <CartesianGrid stroke={GRID} vertical={false} />
        <XAxis dataKey="calls" tick={axisTick} interval={tickInterval(data.length)} />
        <YAxis allowDecimals={false} tick={axisTick} interval={0} />
        <Tooltip contentStyle={TIP} />
        <Legend />
        <Bar dataKey="a" name={a} fill={A} isAnimationActive={false}>
          <LabelList dataKey="a" position="top" fill="var(--text)" fontSize={11} />
        </Bar>
        <Bar dataKey="b" name={b} fill={B} isAnimationActive={false}>
          <LabelList dataKey="b" position="top" fill="var(--text)" fontSize={11} />
        </Bar>
      </BarChart>
    </figure>
  );
}
