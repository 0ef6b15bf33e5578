// W&B offline runs as NeMo-RL lays them out (`<log_dir>/wandb/wandb/offline-run-*/run-<id>.wandb`,
// `latest-run` a link to it), read through a run's trainer logs: the history's series, config from
// the run file and files/config.yaml where the run file lacks it, a run still being written (cut
// mid-record and mid-block) read to its last whole record with a note, a damaged record skipped
// with its byte offset named, and no byte of the files changed. Fixture truth: the writer's input.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getRun } from "@/lib/runs";
import { BLOCK_LENGTH } from "@/lib/trainer/wandb/framing";
import { wandbConfig, wandbHistory, wandbRun, wandbRunFile } from "@/lib/testing/wandb-file";
import { readRunScalars } from "./run-scalars";
import { runTraining } from "./training-section";

const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-wandb-"));
/** 400 steps of a reward with a long text beside it, so the file spans several 32 KiB blocks. */
const STEPS = 400;
const reward = (s: number) => s / 1000;
const bytes = wandbRunFile([
  wandbRun({ run_id: "abc123", project: "nemo-rl", display_name: "grpo" }),
  ...Array.from({ length: STEPS }, (_, s) =>
    wandbHistory(s, { "train/reward": reward(s), "train/note": "x".repeat(300) }, 1.7e9 + s),
  ),
]);

/** A run `name` whose W&B run file is `file`; config.yaml beside it when given. */
function run(name: string, file: Buffer, configYaml?: string): string {
  const runDir = path.join(root, name, "wandb", "wandb", "offline-run-20260801_120000-abc123");
  mkdirSync(path.join(runDir, "files"), { recursive: true });
  writeFileSync(path.join(runDir, "run-abc123.wandb"), file);
  if (configYaml) writeFileSync(path.join(runDir, "files", "config.yaml"), configYaml);
  symlinkSync(path.basename(runDir), path.join(path.dirname(runDir), "latest-run"));
  return path.join(runDir, "run-abc123.wandb");
}

const read = async (name: string) => {
  const s = await readRunScalars(await getRun(name, root));
  const steps = s.series.find((x) => x.tag === "train/reward")?.points ?? [];
  return { s, steps };
};
const hash = (f: string) => createHash("sha256").update(readFileSync(f)).digest("hex");

describe("W&B offline runs in a NeMo-RL log directory", () => {
  it("reads every step, with config.yaml's hyperparameters, and latest-run passed over", async () => {
    expect(bytes.length).toBeGreaterThan(3 * BLOCK_LENGTH);
    run("whole", bytes, "wandb_version: 1\ngrpo:\n  desc: null\n  value:\n    seed: 42\n");
    const { s, steps } = await read("whole");
    expect(s.trainer_logs).toBe(".");
    // The text beside the reward is said once, never charted; latest-run draws no note.
    expect(s.notes).toEqual([
      'wandb/wandb/offline-run-20260801_120000-abc123/run-abc123.wandb: "train/note": 400 values that are not numbers (text, media, histograms); not a series',
    ]);
    expect(steps.map((p) => [p.step, p.value, p.wall_time])).toEqual(
      Array.from({ length: STEPS }, (_, i) => [i, reward(i), 1.7e9 + i]),
    );
    const t = await runTraining(await getRun("whole", root));
    expect(t.facts.find((f) => f.kind === "config")?.entries).toEqual([
      { key: "grpo.seed", value: "42" },
    ]);
    expect(t.facts.find((f) => f.kind === "run")?.entries).toEqual(
      expect.arrayContaining([{ key: "run_id", value: "abc123" }]),
    );
  });

  it("a run still being written, cut mid-block, reads to its last whole record with a note", async () => {
    const cut = bytes.subarray(0, 2 * BLOCK_LENGTH + 1234);
    const file = run("torn", cut);
    const before = hash(file);
    const { s, steps } = await read("torn");
    expect(steps.length).toBeGreaterThan(100);
    expect(steps.length).toBeLessThan(STEPS);
    expect(steps.map((p) => p.step)).toEqual(Array.from({ length: steps.length }, (_, i) => i));
    expect(s.notes.join("\n")).toMatch(/run-abc123\.wandb: .*partial record at byte \d+/);
    expect(hash(file)).toBe(before);
  });

  it("a damaged record is skipped with its byte offset, the rest read", async () => {
    const damaged = Buffer.from(bytes);
    damaged[BLOCK_LENGTH + 100] = damaged[BLOCK_LENGTH + 100]! ^ 0xff;
    const file = run("damaged", damaged);
    const before = hash(file);
    const { s, steps } = await read("damaged");
    expect(steps.length).toBeLessThan(STEPS);
    expect(steps.length).toBeGreaterThan(STEPS - 5);
    expect(steps.at(-1)?.step).toBe(STEPS - 1);
    expect(s.notes.join("\n")).toMatch(/run-abc123\.wandb: byte \d+: .*(CRC|checksum)/i);
    expect(hash(file)).toBe(before);
  });

  it("a newer W&B log version is refused with words, and a config record is a run fact", async () => {
    const newer = Buffer.from(bytes);
    newer[6] = 1;
    run("newer", newer);
    const { s, steps } = await read("newer");
    expect(steps).toEqual([]);
    expect(s.notes.join("\n")).toMatch(/newer W&B \(log version 1\)/);
    run(
      "configured",
      wandbRunFile([wandbConfig({ lr: 1e-6 }), wandbHistory(0, { "train/reward": 1 })]),
    );
    const t = await runTraining(await getRun("configured", root));
    expect(t.facts.find((f) => f.kind === "config")?.entries).toEqual([
      { key: "lr", value: "0.000001" },
    ]);
  });
});
