// A run's training curve as its pages show it: the reward series a comparison reads first (the
// trainer's `train/reward` from its logs, else metrics.jsonl's `reward`; lib/trainer/run-scalars),
// how many steps it has, and its points downsampled to at most `maxPoints` with every gap (a NaN
// step) kept so no line is drawn across it. Pure; reading the logs is lib/runs'.
import { chartPoints, CURVE_MAX_POINTS, rewardSeries, type ScalarSeries } from "@/lib/trainer";
import { mean as ssMean } from "simple-statistics";

export { CURVE_MAX_POINTS };

export interface TrainingCurveView {
  tag: string;
  /** The files its points came from (base names), as the series names them. */
  sources: string[];
  /** Steps in the series, before downsampling. */
  steps: number;
  /** The mean reward over every finite step (before downsampling): the run's one curve mean. */
  mean: number | null;
  points: Array<{ step: number; reward: number | null }>;
}

/** The run's training curve, or null when it has no reward series with a finite value. */
export function trainingCurve(
  series: readonly ScalarSeries[],
  maxPoints = CURVE_MAX_POINTS,
): TrainingCurveView | null {
  const picked = rewardSeries(series);
  if (!picked) return null;
  // A loop, not array chains: a series may hold 200,000 points, and this runs on the server's thread.
  const finite: number[] = [];
  for (const p of picked.points)
    if (p.value !== null && Number.isFinite(p.value)) finite.push(p.value);
  const points = chartPoints(picked.points, maxPoints).map((p) => ({
    step: p.step,
    reward: p.value,
  }));
  return {
    mean: finite.length > 0 ? ssMean(finite) : null,
    tag: picked.tag,
    sources: picked.sources,
    steps: picked.points.length,
    points,
  };
}
