import { describe, expect, it } from "vitest";
import { readMlflowMetric } from "./mlflow";
import { SeriesCollector } from "./scalar-series";

function read(text: string) {
  const c = new SeriesCollector();
  const r = readMlflowMetric(text, "train/reward", "metrics/train/reward", c);
  return { r, points: c.series()[0]?.points ?? [] };
}

describe("MLflow file-store metrics", () => {
  it('reads "timestamp value step" lines (timestamp in ms)', () => {
    const { r, points } = read("1788000150000 0.5106 0\n1788000300500 0.5083 1\n");
    expect(r).toEqual({ file: "metrics/train/reward", lines: 2, notes: [] });
    expect(points).toEqual([
      { step: 0, wall_time: 1788000150, value: 0.5106 },
      { step: 1, wall_time: 1788000300.5, value: 0.5083 },
    ]);
  });
  it("reads old two-column lines as step 0, Python's nan/inf as gaps", () => {
    const { points } = read("1000 0.25\n2000 nan 1\n3000 inf 2\n4000 -inf 3\n");
    expect(points.map((p) => [p.step, p.value, p.non_finite])).toEqual([
      [0, 0.25, undefined],
      [1, null, "NaN"],
      [2, null, "Infinity"],
      [3, null, "-Infinity"],
    ]);
  });
  it("notes a bad line with its number, ignores a torn last line", () => {
    const { r, points } = read("1000 0.1 0\nnot a line\n2000 0.2 1\n3000 0.");
    expect(points.map((p) => p.step)).toEqual([0, 1]);
    expect(r.notes).toEqual(['metrics/train/reward: line 2: not "timestamp value step"; skipped']);
  });
  it("reads an empty file as no points", () => {
    expect(read("")).toEqual({
      r: { file: "metrics/train/reward", lines: 0, notes: [] },
      points: [],
    });
  });
});
