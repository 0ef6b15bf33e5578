"use client";
// A run's training curve (reward per step from the trainer's logs or metrics.jsonl, as compare reads
// it; lib/health/training-curve) on its own: what a run without token capture leads with. Its title
// names its source, "training curve: N steps", so its numbers are never mistaken for the records'
// mean reward. A NaN step is a gap, never bridged.
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { curveSource } from "@/lib/health/pure";
import { AXIS_TICK, axisTick, tickInterval } from "./charts/chart-frame";
import type { TrainingCurveView } from "@/lib/health";

export function TrainingCurve({ curve }: { curve: TrainingCurveView }) {
  const metrics = curve.points;
  return (
    <figure className="chart card wide" data-testid="chart-training-curve">
      <figcaption>
        Reward per training step ({curveSource(curve.steps)}: <code>{curve.tag}</code> from{" "}
        {curve.sources.join(", ")})
      </figcaption>
      <LineChart
        responsive
        width="100%"
        height={230}
        data={metrics}
        margin={{ top: 10, right: 16, left: 8, bottom: 18 }}
      >
        <CartesianGrid stroke="var(--border)" vertical={false} />
        <XAxis
          dataKey="step"
          tick={axisTick}
          interval={tickInterval(metrics.length)}
          label={{ value: "training step", position: "insideBottom", offset: -10, ...AXIS_TICK }}
        />
        <YAxis
          tick={axisTick}
          interval={0}
          domain={["auto", "auto"]}
          label={{ value: "reward", angle: -90, position: "insideLeft", ...AXIS_TICK }}
        />
        <Tooltip
          contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }}
          formatter={(v) => (typeof v === "number" ? v.toFixed(3) : String(v))}
          labelFormatter={(step) => `step ${String(step)}`}
        />
        <Line
          dataKey="reward"
          name="reward"
          stroke="var(--chart-neutral)"
          dot={metrics.length <= 30}
          isAnimationActive={false}
          connectNulls={false}
        />
      </LineChart>
    </figure>
  );
}
