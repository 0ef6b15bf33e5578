// readTrainingCurve: the reward per step the run page and the home page show. Expected values are
// the fixture generator's curves (float32 as the event files store them) and the literal inputs
// written here, never the reader's own output.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { grpoRewardCurves } from "@/fixtures/generator/grpo";
import { eventFileBytes } from "@/lib/testing/event-writer";
import { getRun } from "@/lib/runs/root";
import { readTrainingCurve } from "./run-scalars";

const FIXTURES = path.join(process.cwd(), "fixtures", "runs");

describe("the GRPO runs' training curve comes from their event files", () => {
  const curves = grpoRewardCurves();
  it.each([
    ["grpo-capture-on", curves.on],
    ["grpo-capture-off", curves.off],
    ["grpo-capture-off-seed2", curves.off2],
  ] as const)("%s: 100 steps of train/reward, naming logs/tensorboard", async (id, want) => {
    const c = (await readTrainingCurve(await getRun(id, FIXTURES))).metrics;
    expect(c.error).toBeNull();
    expect(c.file).toBe(`train/reward in ${path.join("logs", "tensorboard")}`);
    expect(c.rows.map((r) => r.step)).toEqual(want.map((_, i) => i));
    expect(c.rows.map((r) => r.reward)).toEqual(want.map((v) => Math.fround(v)));
    expect([c.gaps, c.notes]).toEqual([[], []]);
  });
});

describe("where the curve comes from", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-curve-"));
  const make = (id: string, files: Record<string, string | Uint8Array>) => {
    for (const [rel, body] of Object.entries(files)) {
      const file = path.join(root, id, rel);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, body);
    }
  };
  const events = (values: number[], tag = "train/reward") =>
    eventFileBytes(
      0,
      values.map((value, step) => ({ tag, step, wall_time: 10 + step, value })),
    );
  make("both", {
    "metrics.jsonl": '{"step":0,"reward":0.25}\n{"step":1,"reward":0.5}\n',
    "logs/tensorboard/events.out.tfevents.1.h": events([0.9, 0.8, 0.7]),
  });
  make("jsonl", {
    "metrics.jsonl": '{"step":0,"reward":0.25}\n{"step":1,"reward":0.5}\n',
    "logs/tensorboard/events.out.tfevents.1.h": events([3, 4], "loss"),
  });
  make("gaps", {
    "logs/tensorboard/events.out.tfevents.1.h": events([0.5, Number.NaN, 0.75, Infinity]),
  });
  make("torn", {
    "logs/tensorboard/events.out.tfevents.1.h": events([0.5, 0.25]).subarray(0, -3),
  });
  make("mlflow", {
    "run.json": JSON.stringify({ paths: { trainer_logs: "nemo" } }),
    "nemo/mlruns/0/abc/metrics/reward": "1000 0.5 3\n2000 0.75 4\n",
  });
  make("other-tags", { "logs/tensorboard/events.out.tfevents.1.h": events([1, 2], "loss") });
  make("none", { "run.json": "{}" });

  it("the trainer's train/reward wins over metrics.jsonl, as compare picks it", async () => {
    const c = (await readTrainingCurve(await getRun("both", root))).metrics;
    expect(c.file).toBe(`train/reward in ${path.join("logs", "tensorboard")}`);
    expect(c.rows.map((r) => [r.step, r.reward])).toEqual([
      [0, Math.fround(0.9)],
      [1, Math.fround(0.8)],
      [2, Math.fround(0.7)],
    ]);
  });

  it("metrics.jsonl when the logs hold no reward", async () => {
    const c = (await readTrainingCurve(await getRun("jsonl", root))).metrics;
    expect(c.file).toBe("metrics.jsonl");
    expect(c.rows.map((r) => [r.step, r.reward])).toEqual([
      [0, 0.25],
      [1, 0.5],
    ]);
  });

  it("NaN and Infinity in the event file are gaps, each named by its step", async () => {
    const c = (await readTrainingCurve(await getRun("gaps", root))).metrics;
    expect(c.rows.map((r) => [r.step, r.reward, r.nonFinite ?? []])).toEqual([
      [0, 0.5, []],
      [1, null, ["reward"]],
      [2, 0.75, []],
      [3, null, ["reward"]],
    ]);
    expect(c.gaps).toEqual([
      { line: 0, at: "step 1", key: "train/reward", value: "NaN" },
      { line: 0, at: "step 3", key: "train/reward", value: "Infinity" },
    ]);
  });

  it("a torn final record keeps the whole records before it, with the reader's note", async () => {
    const c = (await readTrainingCurve(await getRun("torn", root))).metrics;
    expect(c.rows.map((r) => [r.step, r.reward])).toEqual([[0, 0.5]]);
    expect(c.notes).toEqual([
      expect.stringMatching(/events\.out\.tfevents\.1\.h: byte \d+: a torn/),
    ]);
  });

  it("MLflow's `reward` in the directory run.json names, when there is no train/reward", async () => {
    const c = (await readTrainingCurve(await getRun("mlflow", root))).metrics;
    expect(c.file).toBe(`reward in ${path.join("nemo", "mlruns", "0", "abc", "metrics")}`);
    expect(c.rows.map((r) => [r.step, r.reward])).toEqual([
      [3, 0.5],
      [4, 0.75],
    ]);
  });

  it("no reward tag and no files at all: no curve, and no error", async () => {
    for (const id of ["other-tags", "none"]) {
      const c = (await readTrainingCurve(await getRun(id, root))).metrics;
      expect([c.rows, c.error], id).toEqual([[], null]);
    }
  });
});
