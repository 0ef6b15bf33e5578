"use client";
// Compare charts: reward per step of both runs with rolling means, their per-step difference, and
// calls per rollout of both runs side by side.
import {
  Bar,
  BarChart,
  CartesianGrid,
  LabelList,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { EvaluationComparison, TrainingComparison } from "@/lib/schema/api-compare";

const AXIS = { fill: "#9aa3b2", fontSize: 11 };
const TIP = { background: "#171a21", border: "1px solid #2a2f3a" };
const A = "#6ea8fe",
  B = "#f5b14c";

/** At most ~`max` points (every k-th step) so long runs draw fast. */
function thin<T>(xs: T[], max = 800): T[] {
  const k = Math.max(1, Math.ceil(xs.length / max));
  return k === 1 ? xs : xs.filter((_, i) => i % k === 0);
}

export function RewardChart({ t, a, b }: { t: TrainingComparison; a: string; b: string }) {
  const data = thin(t.series);
  return (
    <figure className="chart card" data-testid="chart-reward">
      <figcaption>Reward per step (thin: per step; thick: rolling mean of 10)</figcaption>
      <LineChart
        width={900}
        height={260}
        data={data}
        margin={{ top: 10, right: 16, left: -8, bottom: 0 }}
      >
        <CartesianGrid stroke="#2a2f3a" vertical={false} />
        <XAxis dataKey="step" tick={AXIS} />
        <YAxis tick={AXIS} domain={["auto", "auto"]} />
        <Tooltip contentStyle={TIP} />
        <Legend />
        <Line
          dataKey="a"
          name={a}
          stroke={A}
          strokeOpacity={0.45}
          dot={false}
          isAnimationActive={false}
        />
        <Line
          dataKey="b"
          name={b}
          stroke={B}
          strokeOpacity={0.45}
          dot={false}
          isAnimationActive={false}
        />
        <Line
          dataKey="a_rolling"
          name={`${a} (rolling)`}
          stroke={A}
          strokeWidth={2.5}
          dot={false}
          isAnimationActive={false}
        />
        <Line
          dataKey="b_rolling"
          name={`${b} (rolling)`}
          stroke={B}
          strokeWidth={2.5}
          dot={false}
          isAnimationActive={false}
        />
      </LineChart>
    </figure>
  );
}

export function DiffChart({ t }: { t: TrainingComparison }) {
  return (
    <figure className="chart card" data-testid="chart-diff">
      <figcaption>Per-step difference (a − b)</figcaption>
      <LineChart
        width={900}
        height={160}
        data={thin(t.series)}
        margin={{ top: 10, right: 16, left: -8, bottom: 0 }}
      >
        <CartesianGrid stroke="#2a2f3a" vertical={false} />
        <XAxis dataKey="step" tick={AXIS} />
        <YAxis tick={AXIS} />
        <Tooltip contentStyle={TIP} />
        <ReferenceLine y={0} stroke="#9aa3b2" />
        <Line dataKey="diff" name="a − b" stroke="#c586c0" dot={false} isAnimationActive={false} />
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
      <figcaption>Calls made per rollout, captured + failed (rollouts)</figcaption>
      <BarChart
        width={480}
        height={220}
        data={data}
        margin={{ top: 18, right: 8, left: -18, bottom: 0 }}
      >
        <CartesianGrid stroke="#2a2f3a" vertical={false} />
        <XAxis dataKey="calls" tick={AXIS} />
        <YAxis allowDecimals={false} tick={AXIS} />
        <Tooltip contentStyle={TIP} />
        <Legend />
        <Bar dataKey="a" name={a} fill={A} isAnimationActive={false}>
          <LabelList dataKey="a" position="top" fill="#e6e8ee" fontSize={11} />
        </Bar>
        <Bar dataKey="b" name={b} fill={B} isAnimationActive={false}>
          <LabelList dataKey="b" position="top" fill="#e6e8ee" fontSize={11} />
        </Bar>
      </BarChart>
    </figure>
  );
}
