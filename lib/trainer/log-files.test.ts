// The trainer's files parsed off the main thread (./log-files): thinning checked against bucket means
// computed here from the written values, the packed form round-trips every point (gaps and their
// literals too), a file's points are bounded with a note naming the tag, and a large event file
// read through the run's scalars holds the event loop for no stretch near what its parse costs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { watchEventLoop } from "@/lib/testing/event-loop";
import { afterAll, describe, expect, it } from "vitest";
import { eventFileBytes, type ScalarToWrite } from "@/lib/testing/event-writer";
import { FILE_POINTS, parseTrainerFile, thin, unpack, type TrainerFileJob } from "./log-files";
import { readTrainerLogs } from "./read-logs";
import { pointOf, type ScalarSeries } from "./scalar-series";
import { storePool } from "@/lib/rollout/pool";

// The large files are removed after the run, so a test run leaves no hundred megabytes behind.
const dirs: string[] = [];
const made = (dir: string) => (dirs.push(dir), dir);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const series = (values: number[]): ScalarSeries => ({
  tag: "t",
  sources: ["f"],
  points: values.map((v, i) => pointOf(i, 1000 + i, v)),
});

describe("thin", () => {
  it("keeps a series at or under the bound as it is", () => {
    const s = series([1, 2, 3]);
    expect(thin(s, 3)).toBe(s);
  });

  it("cuts 10 steps to 4 bucket means at each bucket's last step; a bucket of gaps stays a gap", () => {
    // Buckets of floor(b·10/4): [0,2) [2,5) [5,7) [7,10).
    const values = [1, 3, NaN, NaN, NaN, 10, 20, 4, NaN, 8];
    const out = thin(series(values), 4).points;
    expect(out.map((p) => p.step)).toEqual([1, 4, 6, 9]);
    expect(out.map((p) => p.value)).toEqual([2, null, 15, 6]);
    expect(out[1]!.non_finite).toBe("NaN");
  });
});

describe("parseTrainerFile", () => {
  it("round-trips every point, non-finite literals included", () => {
    const scalars: ScalarToWrite[] = [
      { tag: "a", step: 1, wall_time: 10, value: 0.5, as: "double_tensor" },
      { tag: "a", step: 2, wall_time: 11, value: NaN, as: "double_tensor" },
      { tag: "a", step: 3, wall_time: 12, value: -Infinity, as: "double_tensor" },
      { tag: "b", step: 1, wall_time: 10, value: Infinity, as: "double_tensor" },
    ];
    const job: TrainerFileJob = {
      kind: "trainer-file",
      format: "tfevents",
      file: "x",
      rel: "tb/x",
    };
    const got = parseTrainerFile(job, Buffer.from(eventFileBytes(9, scalars))).series.map(unpack);
    expect(got.map((s) => s.tag)).toEqual(["a", "b"]);
    expect(got[0]!.points).toEqual([
      { step: 1, wall_time: 10, value: 0.5 },
      { step: 2, wall_time: 11, value: null, non_finite: "NaN" },
      { step: 3, wall_time: 12, value: null, non_finite: "-Infinity" },
    ]);
    expect(got[1]!.points).toEqual([
      { step: 1, wall_time: 10, value: null, non_finite: "Infinity" },
    ]);
  });

  it("sends at most FILE_POINTS points a file, saying which tag was cut and how", () => {
    const steps = FILE_POINTS + 5_000;
    const scalars = Array.from({ length: steps }, (_, i) => ({
      tag: "train/loss",
      step: i,
      wall_time: i,
      value: i % 7,
      as: "double_tensor" as const,
    }));
    const job: TrainerFileJob = {
      kind: "trainer-file",
      format: "tfevents",
      file: "x",
      rel: "tb/x",
    };
    const parsed = parseTrainerFile(job, Buffer.from(eventFileBytes(0, scalars)));
    const points = parsed.series.reduce((n, s) => n + s.steps.length, 0);
    expect(points).toBe(FILE_POINTS);
    expect(parsed.notes).toEqual([
      `tb/x: train/loss: ${steps.toLocaleString("en-US")} steps, shown as ` +
        `${FILE_POINTS.toLocaleString("en-US")} means of consecutive steps`,
    ]);
  });
});

describe("readTrainerLogs, held per version of the directory's files", () => {
  it("answers an unchanged directory from memory and reads a changed file again", async () => {
    const dir = made(mkdtempSync(path.join(os.tmpdir(), "rollout-lens-trainer-merged-")));
    mkdirSync(path.join(dir, "tensorboard"), { recursive: true });
    const file = path.join(dir, "tensorboard", "events.out.tfevents.1.host");
    const write = (value: number, steps: number) =>
      writeFileSync(
        file,
        eventFileBytes(
          0,
          Array.from({ length: steps }, (_, step) => ({ tag: "r", step, wall_time: step, value })),
        ),
      );
    write(0.25, 3);
    const first = await readTrainerLogs(dir);
    expect(await readTrainerLogs(dir)).toBe(first);
    write(0.5, 4); // another size: another version
    const second = await readTrainerLogs(dir);
    expect(second).not.toBe(first);
    expect(second.series[0]!.points.map((p) => p.value)).toEqual([0.5, 0.5, 0.5, 0.5]);
  });
});

describe("a large event file", () => {
  it("is parsed on a store worker: the event loop's longest busy stretch stays under 100 ms", async () => {
    const dir = made(mkdtempSync(path.join(os.tmpdir(), "rollout-lens-trainer-jobs-")));
    mkdirSync(path.join(dir, "tensorboard"), { recursive: true });
    // ~1.5M scalars in 30 tags (~45 MB): parsed on this thread it holds the loop for seconds.
    const scalars: ScalarToWrite[] = [];
    for (let step = 0; step < 50_000; step++)
      for (let t = 0; t < 30; t++)
        scalars.push({ tag: `tag/${t}`, step, wall_time: step, value: Math.sin(step + t) });
    const bytes = eventFileBytes(0, scalars);
    writeFileSync(path.join(dir, "tensorboard", "events.out.tfevents.1.host"), bytes);
    const loop = watchEventLoop();
    expect(storePool("interactive"), "a built store worker (dist/store-worker.mjs)").not.toBeNull();
    const t0 = performance.now();
    const logs = await readTrainerLogs(dir);
    const ms = performance.now() - t0;
    const { maxBusyMs, maxDelayMs } = loop.stop();
    console.log(
      `${(bytes.length / 2 ** 20).toFixed(0)} MiB event file: ${ms.toFixed(0)} ms, longest busy ` +
        `stretch ${maxBusyMs.toFixed(1)} ms, max delay ${maxDelayMs.toFixed(1)} ms`,
    );
    expect(logs.series).toHaveLength(30);
    // 30 tags × 50,000 steps = 1.5M points: each cut to FILE_POINTS / 30.
    const per = Math.floor(FILE_POINTS / 30);
    expect(logs.series.every((s) => s.points.length === per)).toBe(true);
    expect(logs.notes).toHaveLength(30);
    expect(maxBusyMs).toBeLessThan(100);
    // Read again unchanged: the cache answers, nothing is parsed twice.
    const t1 = performance.now();
    const again = await readTrainerLogs(dir);
    expect(again.series[0]!.points).toEqual(logs.series[0]!.points);
    expect(performance.now() - t1).toBeLessThan(ms / 4);
  }, 120_000);
});
