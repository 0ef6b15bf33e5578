"use client";
// Compare charts: the chosen scalar per step of both runs (raw faint, smoothed bold with the URL's
// `smooth` weight, TensorBoard/W&B style), their per-step difference, and calls per rollout of both
// runs side by side. Smoothing is only drawn: the statistics beside the charts are on raw values.
import { useSearchParams } from "next/navigation";
import { useMemo } from "react";
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
import { smoothEma } from "@/lib/trainer/pure";
import { smoothingOf } from "./scalar-picker";

// app/globals.css properties, so the charts follow the theme.
const AXIS = { fill: "var(--muted)", fontSize: 11 };
const TITLE = { fill: "var(--muted)", fontSize: 12, textAnchor: "middle" } as const;
const TIP = { background: "var(--panel)", border: "1px solid var(--border)" };
const GRID = "var(--border)";
const MARGIN = { top: 10, right: 16, left: 8, bottom: 8 };
const A = "var(--run-a)",
  B = "var(--run-b)",
  DIFF = "var(--run-diff)";

/** At most ~`max` points (every k-th step) so long runs draw fast. */
function thin<T>(xs: T[], max = 800): T[] {
  const k = Math.max(1, Math.ceil(xs.length / max));
  return k === 1 ? xs : xs.filter((_, i) => i % k === 0);
}

interface Point {
  step: number;
  a: number;
  b: number;
  diff: number;
  a_smooth: number | null;
  b_smooth: number | null;
  diff_smooth: number | null;
}
type Smoothed = { w: number; points: Point[]; byStep: Map<number, Point> };

/** Each line smoothed over every step (before thinning, so thinning cannot shift the average). */
function useSmoothed(t: TrainingComparison): Smoothed {
  const w = smoothingOf(useSearchParams());
  return useMemo(() => {
    const [sa, sb, sd] = (["a", "b", "diff"] as const).map((k) =>
      smoothEma(
        t.series.map((p) => p[k]),
        w,
      ),
    );
    const all = t.series.map((p, i) => ({
      ...p,
      a_smooth: sa?.[i] ?? null,
      b_smooth: sb?.[i] ?? null,
      diff_smooth: sd?.[i] ?? null,
    }));
    return { w, points: thin(all), byStep: new Map(all.map((p) => [p.step, p])) };
  }, [t, w]);
}

const value = (x: number | null) => (x === null ? "–" : x.toFixed(4));
type TipRow = { name: string; color: string; raw: "a" | "b" | "diff"; smooth: keyof Point };

/** Hover card: each line's raw and smoothed value at the step. */
function StepTip({ point, rows }: { point: Point | undefined; rows: TipRow[] }) {
  if (!point) return null;
  return (
    <div style={{ ...TIP, padding: "6px 8px", fontSize: 12 }} data-testid="chart-tip">
      <div>step {point.step}</div>
      <table>
        <thead>
          <tr className="muted">
            <th />
            <th>raw</th>
            <th>smoothed</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.name} style={{ color: r.color }}>
              <td>{r.name}</td>
              <td className="mono">{value(point[r.raw])}</td>
              <td className="mono">{value(point[r.smooth])}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const caption = (w: number) =>
  w > 0 ? `faint: per step; bold: smoothed (EMA ${w.toFixed(2)})` : "per step; smoothing off";

export function RewardChart({
  t,
  a,
  b,
  scalar,
}: {
  t: TrainingComparison;
  a: string;
  b: string;
  scalar: string;
}) {
  const s = useSmoothed(t);
  const rows: TipRow[] = [
    { name: a, color: A, raw: "a", smooth: "a_smooth" },
    { name: b, color: B, raw: "b", smooth: "b_smooth" },
  ];
  return (
    <figure className="chart card" data-testid="chart-reward" data-scalar={scalar}>
      <figcaption>
        <span className="mono">{scalar}</span> per step ({caption(s.w)})
      </figcaption>
      <LineChart width={900} height={280} data={s.points} margin={MARGIN}>
        <CartesianGrid stroke={GRID} vertical={false} />
        <XAxis dataKey="step" tick={AXIS} height={36}>
          <Label value="step" position="insideBottom" offset={0} style={TITLE} />
        </XAxis>
        <YAxis tick={AXIS} domain={["auto", "auto"]} width={64}>
          <Label value={scalar} angle={-90} position="insideLeft" style={TITLE} />
        </YAxis>
        <Tooltip
          content={({ label }) => <StepTip point={s.byStep.get(Number(label))} rows={rows} />}
        />
        <Legend />
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
        {rows.map((r) => (
          <Line
            key={r.smooth}
            dataKey={r.smooth}
            name={r.name}
            stroke={r.color}
            strokeWidth={2.5}
            dot={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </figure>
  );
}

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
        <XAxis dataKey="step" tick={AXIS} height={36}>
          <Label value="step" position="insideBottom" offset={0} style={TITLE} />
        </XAxis>
        <YAxis tick={AXIS} width={64}>
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
        width={480}
        height={220}
        data={data}
        margin={{ top: 18, right: 8, left: -18, bottom: 0 }}
      >
        <CartesianGrid stroke={GRID} vertical={false} />
        <XAxis dataKey="calls" tick={AXIS} />
        <YAxis allowDecimals={false} tick={AXIS} />
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
