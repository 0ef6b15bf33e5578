// A run's training curve as its pages show it: the reward series a comparison reads first (the
// trainer's `train/reward` from its logs, else metrics.jsonl's `reward`; lib/trainer/run-scalars),
// how many steps it has, and its points downsampled to at most `maxPoints` with every gap (a NaN
// step) kept so no line is drawn across it. Pure; reading the logs is lib/runs'.
import {
  chartPoints,
  CURVE_MAX_POINTS,
  rewardSeries,
  seriesFacts,
  type ScalarSeries,
} from "@/lib/trainer";

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
  // The series' facts come from the worker that parsed it (or are worked out once): a series may
  // hold 200,000 points, and this runs on the server's thread.
  const facts = seriesFacts(picked);
  const chart =
    maxPoints === CURVE_MAX_POINTS ? facts.chart : chartPoints(picked.points, maxPoints);
  return {
    mean: facts.finiteMean,
    tag: picked.tag,
    sources: picked.sources,
    steps: facts.count,
    points: chart.map((p) => ({ step: p.step, reward: p.value })),
  };
}
