import type Database from "better-sqlite3";
import { mkdirSync, statSync, truncateSync } from "node:fs";
import path from "node:path";
import { getHeapStatistics } from "node:v8";
import { afterEach, describe, expect, it } from "vitest";
import {
  addMlflowMetrics,
  openMlflowWalWriter,
  writeMlflowDb,
  type MlflowDbMetric,
  type MlflowDbSpec,
} from "@/lib/testing/mlflow-db";
import { fingerprintDir, tempStore } from "@/lib/testing/temp-store";
import { PackedCollector, unpack } from "../packed-series";
import type { PointSink, ScalarPoint } from "../scalar-series";
import { parseMlflowDatabase } from "./index";

const T = 1_786_032_154_000;
const RUN = "0123456789abcdef0123456789abcdef";

function spec(metrics: MlflowDbMetric[]): MlflowDbSpec {
  return { runs: [{ uuid: RUN, name: "grpo", params: { lr: "1e-6" }, metrics }] };
}

const rewards = (from: number, to: number): MlflowDbMetric[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({
    key: "train/reward",
    value: (from + i) / 100,
    step: from + i,
    timestamp: T + (from + i) * 1000,
  }));

const writers: Database.Database[] = [];
afterEach(() => writers.splice(0).forEach((w) => w.open && w.close()));

async function parsed(file: string, wanted?: string) {
  const c = new PackedCollector();
  const read = await parseMlflowDatabase(file, "logs/mlflow.db", c, wanted);
  return { ...read, series: c.series().map(unpack) };
}

describe("parseMlflowDatabase", () => {
  it("reads a live trainer's WAL database, rows only in its -wal, changing no file", async () => {
    const dir = tempStore({});
    const file = path.join(dir, "mlflow.db");
    const w = openMlflowWalWriter(file, spec(rewards(1, 3)));
    writers.push(w);
    // The trainer goes on logging, inside a transaction it has not committed yet.
    w.exec("BEGIN IMMEDIATE");
    addMlflowMetrics(w, RUN, rewards(4, 4));
    const before = fingerprintDir(dir);
    expect(Object.keys(before).sort()).toEqual(["mlflow.db", "mlflow.db-shm", "mlflow.db-wal"]);

    const read = await parsed(file);

    expect(read.notes).toEqual([]);
    expect(read.picked?.name).toBe("grpo");
    expect(read.rows).toBe(3);
    expect(read.series.map((s) => [s.tag, s.points.map((p) => p.value)])).toEqual([
      ["train/reward", [0.01, 0.02, 0.03]],
    ]);
    expect(fingerprintDir(dir)).toEqual(before);
    w.exec("COMMIT");
    expect((await parsed(file)).rows).toBe(4);
  });

  it("names the file for what is not an MLflow database", async () => {
    const dir = tempStore({ "empty.db": "", "noise.db": Buffer.alloc(4096, 0x5a) });
    mkdirSync(path.join(dir, "x.db"));
    const other = path.join(dir, "other.db");
    writeMlflowDb(other, { runs: [] });
    const cut = path.join(dir, "cut.db");
    writeMlflowDb(cut, spec(rewards(1, 5000)));
    truncateSync(cut, Math.floor(statSync(cut).size / 2));
    const noteOf = async (name: string) => {
      const c = new PackedCollector();
      return (await parseMlflowDatabase(path.join(dir, name), `logs/${name}`, c)).notes;
    };

    expect(await noteOf("empty.db")).toEqual([
      "logs/empty.db: an empty file (0 bytes), not an SQLite database yet",
    ]);
    expect(await noteOf("noise.db")).toEqual([
      "logs/noise.db: file is not a database (SQLITE_NOTADB)",
    ]);
    expect(await noteOf("x.db")).toEqual(["logs/x.db: a directory, not a regular file; refused"]);
    expect(await noteOf("other.db")).toEqual(["logs/other.db: no runs (other than deleted ones)"]);
    expect((await noteOf("cut.db"))[0]).toMatch(
      /^logs\/cut\.db: database disk image is malformed \(SQLITE_CORRUPT\)$/,
    );
  });

  it("picks the run run.json names among several, and none unnamed", async () => {
    const file = path.join(tempStore({}), "mlflow.db");
    writeMlflowDb(file, {
      runs: [
        { uuid: "a".repeat(32), name: "first", metrics: rewards(1, 2) },
        { uuid: "b".repeat(32), name: "second", metrics: rewards(1, 3) },
      ],
    });
    const none = await parsed(file);
    expect([none.picked, none.rows, none.runs.length]).toEqual([null, 0, 2]);
    expect(none.notes).toEqual([
      `logs/mlflow.db: 2 runs ("first", "second"); run.json's "mlflow_run" (a run's name or id) picks one`,
    ]);
    const second = await parsed(file, "second");
    expect([second.picked?.run_uuid, second.rows, second.notes]).toEqual(["b".repeat(32), 3, []]);
  });
});

/** How many metric rows the memory test writes; MLFLOW_DB_ROWS sets another size. */
const ROWS = Number(process.env.MLFLOW_DB_ROWS) || 1_000_000;
const KEYS = ["train/reward", "train/loss", "train/kl", "train/grad_norm"];

/** The workers' collector, sampling the heap (and its typed arrays' memory) as points arrive. */
class HeapSampler implements PointSink {
  readonly packed = new PackedCollector();
  points = 0;
  peak = 0;
  peakArrays = 0;
  add(tag: string, source: string, p: ScalarPoint): void {
    this.packed.add(tag, source, p);
    if (++this.points % 20_000 === 0) {
      this.peak = Math.max(this.peak, getHeapStatistics().used_heap_size);
      this.peakArrays = Math.max(this.peakArrays, process.memoryUsage().arrayBuffers);
    }
  }
}

describe(`a database of ${ROWS.toLocaleString("en")} metric rows`, () => {
  it(
    "is read row by row within 50 MB of extra heap, 200 MB with its points",
    { timeout: 120_000 },
    async () => {
      const file = path.join(tempStore({}), "mlflow.db");
      writeMlflowDb(file, { runs: [{ uuid: RUN, name: "big" }] });
      const { default: Sqlite } = await import("better-sqlite3");
      const w = new Sqlite(file);
      function* rows(): Generator<MlflowDbMetric> {
        for (let i = 0; i < ROWS; i++)
          yield { key: KEYS[i % KEYS.length]!, value: i / ROWS, step: i >> 2, timestamp: T + i };
      }
      addMlflowMetrics(w, RUN, rows());
      w.close();

      const sink = new HeapSampler();
      const base = getHeapStatistics().used_heap_size;
      const baseArrays = process.memoryUsage().arrayBuffers;
      const started = performance.now();
      const read = await parseMlflowDatabase(file, "mlflow.db", sink);
      const seconds = (performance.now() - started) / 1000;
      const extraMb = (Math.max(sink.peak, getHeapStatistics().used_heap_size) - base) / 1e6;
      const arraysMb = (sink.peakArrays - baseArrays) / 1e6;
      console.log(
        `mlflow-db: ${ROWS} rows (${(statSync(file).size / 1e6).toFixed(0)} MB) read in ` +
          `${seconds.toFixed(2)} s: ${extraMb.toFixed(1)} MB extra heap at peak, ` +
          `${arraysMb.toFixed(1)} MB of typed arrays`,
      );
      expect([read.rows, sink.points, read.notes]).toEqual([ROWS, ROWS, []]);
      expect(sink.packed.series().map((s) => [s.tag, s.steps.length])).toEqual(
        [...KEYS].sort().map((k) => [k, ROWS / KEYS.length]),
      );
      expect(extraMb).toBeLessThan(50);
      expect(extraMb + arraysMb).toBeLessThan(200);
    },
  );
});
