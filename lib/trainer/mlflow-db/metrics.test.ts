import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { TWO_GRPO_RUNS, tempMlflowDb, type MlflowDbSpec } from "@/lib/testing/mlflow-db";
import { PackedCollector, unpack } from "../packed-series";
import { SeriesCollector } from "../scalar-series";
import { readMlflowDbMetrics } from "./index";

const T = 1_786_032_154_000;
const dbs: Database.Database[] = [];
afterEach(() => dbs.splice(0).forEach((db) => db.close()));

function dbOf(spec: MlflowDbSpec): Database.Database {
  const db = new Database(tempMlflowDb(spec), { readonly: true });
  dbs.push(db);
  return db;
}

function seriesOf(db: Database.Database, uuid: string) {
  const c = new SeriesCollector();
  const read = readMlflowDbMetrics(db, uuid, "mlflow.db", c);
  return { read, series: c.series() };
}

/** The fixture's own points of `key` in run `i`, as the reader should give them. */
function truth(i: number, key: string) {
  return TWO_GRPO_RUNS.runs[i]!.metrics!.filter((m) => m.key === key).map((m) => ({
    step: m.step,
    wall_time: m.timestamp / 1000,
    value: m.value,
  }));
}

describe("readMlflowDbMetrics", () => {
  it("reads each run's series, timestamps in seconds", () => {
    const db = dbOf(TWO_GRPO_RUNS);
    const [a, b] = TWO_GRPO_RUNS.runs;
    const { read, series } = seriesOf(db, a!.uuid);
    expect(read).toEqual({ rows: 3, notes: [] });
    expect(series).toEqual([
      { tag: "train/loss", sources: ["mlflow.db"], points: truth(0, "train/loss") },
      { tag: "train/reward", sources: ["mlflow.db"], points: truth(0, "train/reward") },
    ]);
    expect(seriesOf(db, b!.uuid).series).toEqual([
      { tag: "train/reward", sources: ["mlflow.db"], points: truth(1, "train/reward") },
    ]);
  });

  it("keeps NaN (is_nan = 1) and ±Infinity (±DBL_MAX) as gaps", () => {
    const db = dbOf({
      runs: [
        {
          uuid: "c3".repeat(16),
          metrics: [
            { key: "grad_norm", value: 2, step: 1, timestamp: T },
            { key: "grad_norm", value: NaN, step: 2, timestamp: T + 1 },
            { key: "grad_norm", value: Infinity, step: 3, timestamp: T + 2 },
            { key: "grad_norm", value: -Infinity, step: 4, timestamp: T + 3 },
          ],
        },
      ],
    });
    // As MLflow's SQL store writes them.
    expect(db.prepare("SELECT value, is_nan FROM metrics ORDER BY step").all()).toEqual([
      { value: 2, is_nan: 0 },
      { value: 0, is_nan: 1 },
      { value: Number.MAX_VALUE, is_nan: 0 },
      { value: -Number.MAX_VALUE, is_nan: 0 },
    ]);
    const w = (ms: number) => (T + ms) / 1000;
    expect(seriesOf(db, "c3".repeat(16)).series[0]!.points).toEqual([
      { step: 1, wall_time: w(0), value: 2 },
      { step: 2, wall_time: w(1), value: null, non_finite: "NaN" },
      { step: 3, wall_time: w(2), value: null, non_finite: "Infinity" },
      { step: 4, wall_time: w(3), value: null, non_finite: "-Infinity" },
    ]);
  });

  it("keeps one value per (key, step): the latest timestamp, then the greatest value", () => {
    const spec: MlflowDbSpec = {
      runs: [
        {
          uuid: "d4".repeat(16),
          metrics: [
            { key: "loss", value: 9, step: 5, timestamp: T + 50 },
            { key: "loss", value: 3, step: 5, timestamp: T + 70 },
            { key: "loss", value: 4, step: 5, timestamp: T + 60 },
            // A restarted trainer logging step 6 twice in the same millisecond.
            { key: "loss", value: 2, step: 6, timestamp: T + 80 },
            { key: "loss", value: 1, step: 6, timestamp: T + 80 },
          ],
        },
      ],
    };
    const db = dbOf(spec);
    const want = [
      { step: 5, wall_time: (T + 70) / 1000, value: 3 },
      { step: 6, wall_time: (T + 80) / 1000, value: 2 },
    ];
    const { read, series } = seriesOf(db, "d4".repeat(16));
    expect(read.rows).toBe(5);
    expect(series[0]!.points).toEqual(want);
    // The workers' typed-array collector resolves the same rows the same way.
    const packed = new PackedCollector();
    readMlflowDbMetrics(db, "d4".repeat(16), "mlflow.db", packed);
    expect(packed.series().map(unpack)[0]!.points).toEqual(want);
    // And MLflow's own latest value for the key is the last point.
    expect(db.prepare("SELECT step, value FROM latest_metrics").get()).toEqual({
      step: 6,
      value: 2,
    });
  });

  it("says a run logged no metrics", () => {
    const db = dbOf({ runs: [{ uuid: "ab".repeat(16), name: "quiet" }] });
    expect(seriesOf(db, "ab".repeat(16)).read).toEqual({
      rows: 0,
      notes: [`mlflow.db: run ${"ab".repeat(16)} logged no metrics`],
    });
  });
});
