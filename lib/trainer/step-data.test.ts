import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listStepFiles, loggedAdvantageOf, readStepFile, type StepFile } from "./step-data";

function stepFile(text: string, name = "train_data_step4.jsonl"): StepFile {
  const dir = mkdtempSync(path.join(os.tmpdir(), "nemo-rl-steps-"));
  writeFileSync(path.join(dir, name), text);
  return { kind: name.startsWith("val") ? "val" : "train", step: 4, file: path.join(dir, name) };
}

const good = {
  agent_ref: [{ name: "math" }],
  content: ["hello"],
  rewards: [1],
  input_lengths: [3],
  token_ids: [[5, 6, 7, 0, 0]],
  token_loss_mask: [[0, 1, 1, 0, 0]],
  sample_loss_mask: [1],
  advantages: [[0.5, 0.5, 0.5, 0, 0]],
  generation_logprobs: [[0, -0.1, -0.2, 0, 0]],
  prev_logprobs: [[0, -0.11, -0.19, 0, 0]],
  idx: 0,
};
const line = (v: unknown) => JSON.stringify(v) + "\n";

describe("readStepFile", () => {
  it("unwraps each batch of one, cuts padding at input_lengths and keeps unknown keys", async () => {
    const f = stepFile(line({ ...good, filtered_rewards: [0.25] }));
    const { samples, issues } = await readStepFile(f);
    expect(issues).toEqual([]);
    expect(samples).toHaveLength(1);
    expect(samples[0]).toMatchObject({
      step: 4,
      line: 1,
      idx: 0,
      inputLength: 3,
      tokenIds: [5, 6, 7],
      tokenLossMask: [0, 1, 1],
      prevLogprobs: [0, -0.11, -0.19],
      reward: 1,
      agentName: "math",
      content: "hello",
      extra: { filtered_rewards: [0.25] },
    });
  });

  it("a ragged line names its file and line and costs only that sample", async () => {
    const ragged = { ...good, idx: 1, prev_logprobs: [[0, -0.1, -0.2]] };
    const f = stepFile(line(good) + line(ragged) + line({ ...good, idx: 2 }));
    const { samples, issues } = await readStepFile(f);
    expect(samples.map((s) => s.idx)).toEqual([0, 2]);
    expect(issues).toHaveLength(1);
    expect(issues[0]!.line).toBe(2);
    expect(issues[0]!.message).toMatch(
      /^train_data_step4\.jsonl line 2: ragged lists: .*prev_logprobs 3/,
    );
  });

  it("input_lengths past the ids, a value that is not a batch of one, and bad JSON are refused", async () => {
    const f = stepFile(
      line({ ...good, input_lengths: [9] }) +
        line({ ...good, rewards: [1, 2] }) +
        "{not json\n" +
        line(good),
    );
    const { samples, issues } = await readStepFile(f);
    expect(samples.map((s) => s.line)).toEqual([4]);
    expect(issues.map((i) => i.line)).toEqual([1, 2, 3]);
    expect(issues[0]!.message).toContain("input_lengths is 9 but token_ids holds 5 ids");
    expect(issues[2]!.message).toContain("not valid JSON");
  });

  it("keeps Python's NaN and -Infinity as numbers (evidence, not errors)", async () => {
    const text = line(good)
      .replace("-0.11", "NaN")
      .replace("-0.19", "-Infinity")
      .replace('"hello"', '"NaN stays text"');
    const { samples, issues } = await readStepFile(stepFile(text));
    expect(issues).toEqual([]);
    expect(samples[0]!.prevLogprobs).toEqual([0, NaN, -Infinity]);
    expect(samples[0]!.content).toBe("NaN stays text");
  });

  it("an empty file has no samples; a torn final line is reported, the lines before it read", async () => {
    expect(await readStepFile(stepFile(""))).toEqual({ samples: [], issues: [] });
    const torn = await readStepFile(stepFile(line(good) + line(good).slice(0, 40)));
    expect(torn.samples).toHaveLength(1);
    expect(torn.issues[0]).toMatchObject({ line: 2 });
    expect(torn.issues[0]!.message).toContain("torn final line");
  });

  it("a val file with content and rewards only is read", async () => {
    const f = stepFile(
      line({ content: [[{ role: "user" }]], rewards: [0], idx: 0 }),
      "val_data_step4.jsonl",
    );
    const { samples } = await readStepFile(f);
    expect(samples[0]).toMatchObject({ kind: "val", tokenIds: null, reward: 0 });
  });
});

describe("listStepFiles", () => {
  it("finds train and val files by name and step, nothing else", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "nemo-rl-list-"));
    for (const n of [
      "train_data_step10.jsonl",
      "train_data_step2.jsonl",
      "val_data_step1.jsonl",
      "notes.jsonl",
    ])
      writeFileSync(path.join(dir, n), "");
    const files = await listStepFiles(dir);
    expect(files.map((f) => [f.kind, f.step])).toEqual([
      ["train", 2],
      ["train", 10],
      ["val", 1],
    ]);
    expect(await listStepFiles(path.join(dir, "missing"))).toEqual([]);
  });
});

describe("loggedAdvantageOf", () => {
  it("reads the first loss token's value, the first token's without one, and none it cannot tell", () => {
    const of = (tokenLossMask: number[] | null, advantages: number[] | null) =>
      loggedAdvantageOf({ tokenLossMask, advantages });
    expect(of([0, 0, 1, 1], [9, 9, 0.25, 0.25])).toBe(0.25);
    expect(of([0, 0, 0], [-0.5, -0.5, -0.5])).toBe(-0.5); // no loss token: the sample's value
    expect(of(null, [0.75, 0.75])).toBe(0.75);
    expect(of([1], null)).toBeNull();
    expect(of([1], [])).toBeNull();
    // A loss token past a cut list has no logged value: never another token's.
    expect(of([0, 0, 0, 1], [9, 9])).toBeNull();
  });
});
