// The training curve the run pages draw: the trainer's reward before metrics.jsonl's, its step
// count before downsampling, gaps kept.
import { describe, expect, it } from "vitest";
import type { ScalarSeries } from "@/lib/trainer/scalar-series";
import { trainingCurve } from "./training-curve";

const series = (
  tag: string,
  values: Array<number | null>,
  source = "metrics.jsonl",
): ScalarSeries => ({
  tag,
  sources: [source],
  points: values.map((value, step) => ({ step, wall_time: step, value })),
});

describe("trainingCurve", () => {
  it("prefers the trainer's train/reward to metrics.jsonl's reward, as compare does", () => {
    const curve = trainingCurve([
      series("reward", [0, 0, 0]),
      series("train/reward", [0.1, 0.2, 0.3, 0.4], "events.out.tfevents.1"),
      series("train/kl", [1, 2]),
    ]);
    expect(curve).toMatchObject({
      tag: "train/reward",
      sources: ["events.out.tfevents.1"],
      steps: 4,
    });
    expect(curve?.points).toEqual([
      { step: 0, reward: 0.1 },
      { step: 1, reward: 0.2 },
      { step: 2, reward: 0.3 },
      { step: 3, reward: 0.4 },
    ]);
  });

  it("falls back to metrics.jsonl's reward, and to nothing when no reward has a value", () => {
    expect(trainingCurve([series("reward", [0.5, 0.6])])?.tag).toBe("reward");
    expect(trainingCurve([series("train/reward", [null, null]), series("loss", [1])])).toBeNull();
    expect(trainingCurve([])).toBeNull();
  });

  it("counts every step but draws at most maxPoints, keeping every gap", () => {
    const values = Array.from({ length: 10 }, (_, i) => (i === 5 ? null : i / 10));
    const curve = trainingCurve([series("reward", values)], 4);
    expect(curve?.steps).toBe(10);
    // stride ceil(10 / 4) = 3: steps 0, 3, 6, 9, and the gap at 5.
    expect(curve?.points.map((p) => p.step)).toEqual([0, 3, 5, 6, 9]);
    expect(curve?.points.find((p) => p.step === 5)?.reward).toBeNull();
  });
});
