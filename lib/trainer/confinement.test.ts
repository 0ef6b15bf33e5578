// The trainer's files are confined like the stores: a symlink at any level of a run's `logs/` that
// leads out of it (its `tensorboard/`, `mlruns/`, a step file) or out of the runs root (`logs/`
// itself) is refused by name, and nothing read outside ever shows in a message. Expected values are
// the files this test writes: a secret outside the root that no answer may contain.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getRun } from "@/lib/runs/root";
import { eventFileBytes } from "@/lib/testing/event-writer";
import { readRunScalars, readTrainingCurve } from "./run-scalars";
import { listStepFiles, readStepFile } from "./step-data";
import { trainerLogDir } from "./truth-check";

const SECRET = "SECRET-OUTSIDE";

/** A runs root with run `r` (a rollouts.jsonl, a logs/ directory) and a directory outside it. */
function world() {
  const top = mkdtempSync(path.join(os.tmpdir(), "rl-trainer-confine-"));
  const root = path.join(top, "root");
  const run = path.join(root, "r");
  const outside = path.join(top, "outside");
  mkdirSync(path.join(run, "logs"), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(run, "rollouts.jsonl"), "");
  return { root, run, logs: path.join(run, "logs"), outside };
}

/** An MLflow file store under `dir` with one metric `train/reward` of value `v` at step 1. */
function mlruns(dir: string, v: number): void {
  const metrics = path.join(dir, "0", "abc", "metrics", "train");
  mkdirSync(metrics, { recursive: true });
  writeFileSync(path.join(metrics, "reward"), `1788000000000 ${v} 1\n`);
}

describe("a run's trainer logs", () => {
  it("refuse a tensorboard/ or mlruns/ symlink that leads out of logs/, by name, unread", async () => {
    const w = world();
    mlruns(path.join(w.outside, "mlruns"), 0.25);
    mkdirSync(path.join(w.outside, "tb"));
    writeFileSync(path.join(w.outside, "tb", "events.out.tfevents.1.host"), `${SECRET}\n`);
    symlinkSync(path.join(w.outside, "mlruns"), path.join(w.logs, "mlruns"));
    symlinkSync(path.join(w.outside, "tb"), path.join(w.logs, "tensorboard"));
    const s = await readRunScalars(await getRun("r", w.root));
    expect(s.series).toEqual([]);
    expect(s.notes).toEqual(
      expect.arrayContaining([
        "mlruns: a symlink that points outside the trainer log directory; refused",
        "tensorboard: a symlink that points outside the trainer log directory; refused",
      ]),
    );
    expect(JSON.stringify(s)).not.toContain(SECRET);
  });

  it("follow a symlink that stays inside logs/", async () => {
    const w = world();
    mlruns(path.join(w.logs, "kept-mlruns"), 0.75);
    symlinkSync(path.join(w.logs, "kept-mlruns"), path.join(w.logs, "mlruns"));
    const s = await readRunScalars(await getRun("r", w.root));
    expect(s.notes).toEqual([]);
    expect(s.series.find((x) => x.tag === "train/reward")?.points.map((p) => p.value)).toEqual([
      0.75,
    ]);
  });

  it("refuse a step file that links out of logs/, without quoting its bytes", async () => {
    const w = world();
    writeFileSync(path.join(w.outside, "secret.jsonl"), `${SECRET}\n`);
    symlinkSync(path.join(w.outside, "secret.jsonl"), path.join(w.logs, "train_data_step1.jsonl"));
    const [file] = await listStepFiles(w.logs);
    expect(file?.step).toBe(1);
    const read = await readStepFile(file!);
    expect(read.samples).toEqual([]);
    expect(read.issues).toEqual([
      {
        file: "train_data_step1.jsonl",
        line: null,
        message:
          "train_data_step1.jsonl: a symlink that points outside the run's log directory; refused",
      },
    ]);
    expect(JSON.stringify(read)).not.toContain(SECRET);
  });

  it("are never looked for in a logs/ that links out of the runs root", async () => {
    const w = world();
    const logs = path.join(w.outside, "logs");
    mkdirSync(path.join(logs, "tensorboard"), { recursive: true });
    writeFileSync(path.join(logs, "train_data_step1.jsonl"), `${SECRET}\n`);
    writeFileSync(
      path.join(logs, "tensorboard", "events.out.tfevents.1.host"),
      eventFileBytes(1, [{ tag: "train/reward", step: 1, wall_time: 1, value: 0.5 }]),
    );
    const run = path.join(w.root, "r2");
    mkdirSync(run);
    writeFileSync(path.join(run, "rollouts.jsonl"), "");
    symlinkSync(logs, path.join(run, "logs"));
    const r = await getRun("r2", w.root);
    expect(await trainerLogDir(r)).toBeNull();
    const s = await readRunScalars(r);
    expect(s.series).toEqual([]);
    expect(s.trainer_logs).toBeNull();
    expect(s.notes).toEqual([expect.stringMatching(/^logs: a symlink that points outside/)]);
  });
});

describe("symlinks deeper in a run's logs/", () => {
  it("are named and never followed at any level: a run directory, an experiment, a file", async () => {
    const w = world();
    // Outside: an event file, a directory of them and an MLflow run, each holding a series the
    // run must never show.
    const secret = eventFileBytes(1, [{ tag: "secret/x", step: 1, wall_time: 1, value: 0.5 }]);
    mkdirSync(path.join(w.outside, "tb"));
    writeFileSync(path.join(w.outside, "tb", "events.out.tfevents.9.host"), secret);
    writeFileSync(path.join(w.outside, "events.out.tfevents.8.host"), secret);
    mlruns(path.join(w.outside, "ml"), 0.9);
    writeFileSync(path.join(w.outside, "loss"), `1 ${SECRET} 1\n`);
    const tb = path.join(w.logs, "tensorboard");
    mkdirSync(tb);
    mlruns(path.join(w.logs, "mlruns"), 0.5);
    const train = path.join(w.logs, "mlruns", "0", "abc", "metrics", "train");
    symlinkSync(path.join(w.outside, "tb"), path.join(tb, "sub"));
    const ev = "events.out.tfevents.8.host";
    symlinkSync(path.join(w.outside, ev), path.join(tb, ev));
    symlinkSync(path.join(w.outside, "ml", "0"), path.join(w.logs, "mlruns", "1"));
    symlinkSync(path.join(w.outside, "ml", "0", "abc"), path.join(w.logs, "mlruns", "0", "abd"));
    symlinkSync(path.join(w.outside, "loss"), path.join(train, "loss"));
    const s = await readRunScalars(await getRun("r", w.root));
    expect(s.series.map((x) => [x.tag, x.points.map((p) => p.value)])).toEqual([
      ["train/reward", [0.5]],
    ]);
    expect(s.notes).toEqual([
      `${path.join("tensorboard", ev)}: a symlink; not followed`,
      `${path.join("tensorboard", "sub")}: a symlink; not followed`,
      `${path.join("mlruns", "0", "abc", "metrics", "train", "loss")}: a symlink; not followed`,
      `${path.join("mlruns", "0", "abd")}: a symlink; not followed`,
      `${path.join("mlruns", "1")}: a symlink; not followed`,
    ]);
    expect(JSON.stringify(s)).not.toContain(SECRET);
  });
});

describe("a FIFO where a trainer log should be", () => {
  it("is named in a note and never opened (a read would wait forever)", async () => {
    const w = world();
    mkdirSync(path.join(w.logs, "tensorboard"));
    execFileSync("mkfifo", [path.join(w.logs, "tensorboard", "events.out.tfevents.1.host")]);
    mlruns(path.join(w.logs, "mlruns"), 0.5);
    const metric = path.join(w.logs, "mlruns", "0", "abc", "metrics", "train", "kl");
    execFileSync("mkfifo", [metric]);
    const s = await readRunScalars(await getRun("r", w.root));
    expect(s.notes).toEqual([
      `${path.join("tensorboard", "events.out.tfevents.1.host")}: a FIFO; not read`,
      `${path.join("mlruns", "0", "abc", "metrics", "train", "kl")}: a FIFO; not read`,
    ]);
    expect(s.series.map((x) => x.tag)).toEqual(["train/reward"]);
  });

  it("a step file or metrics.jsonl: refused by type, named, never opened", async () => {
    const w = world();
    execFileSync("mkfifo", [path.join(w.logs, "train_data_step2.jsonl")]);
    execFileSync("mkfifo", [path.join(w.run, "metrics.jsonl")]);
    const [file] = await listStepFiles(w.logs);
    expect((await readStepFile(file!)).issues).toEqual([
      {
        file: "train_data_step2.jsonl",
        line: null,
        message:
          "train_data_step2.jsonl: not a regular file (a directory, FIFO or device); refused",
      },
    ]);
    const { metrics } = await readTrainingCurve(await getRun("r", w.root));
    expect(metrics.error).toBe(
      "metrics.jsonl: not a regular file (a directory, FIFO or device); refused",
    );
  });
});

describe("notes about the trainer logs", () => {
  it("name the log directory as their source, also when the curve is metrics.jsonl's", async () => {
    const w = world();
    mkdirSync(path.join(w.logs, "tensorboard"));
    execFileSync("mkfifo", [path.join(w.logs, "tensorboard", "events.out.tfevents.1.host")]);
    writeFileSync(path.join(w.run, "metrics.jsonl"), '{"step": 0, "reward": 0.5}\n');
    const { metrics, series } = await readTrainingCurve(await getRun("r", w.root));
    expect(series?.tag).toBe("reward");
    expect(metrics.file).toBe("metrics.jsonl");
    expect(metrics.notesSource).toBe("logs");
    expect(metrics.notes).toEqual([
      `${path.join("tensorboard", "events.out.tfevents.1.host")}: a FIFO; not read`,
    ]);
  });
});
