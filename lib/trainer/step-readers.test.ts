// The whole-file reader (eachStepSample, the hotspots' one pass) against the streaming one
// (readStepFile, the truth check's): the same samples and the same issues, line for line, on a file
// that holds every kind of line docs/hotspots.md "One pass, bounded" names: blank and CRLF lines,
// Python's bare NaN, bad JSON, a schema error, ragged lists, content nested past the depth limit,
// and a torn final line. And a file with NUL bytes, which the whole-file reader hands to the stream.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_DEPTH } from "@/lib/store";
import { eachStepSample, readStepFile, type StepFile, type StepSample } from "./step-data";

function stepFile(text: string | Buffer): StepFile {
  const dir = mkdtempSync(path.join(os.tmpdir(), "nemo-rl-readers-"));
  const file = path.join(dir, "train_data_step2.jsonl");
  writeFileSync(file, text);
  return { kind: "train", step: 2, file };
}

const good = (idx: number) => ({
  agent_ref: [{ name: "math" }],
  content: ["hi"],
  input_lengths: [3],
  token_ids: [[5, 6, 7]],
  token_loss_mask: [[0, 1, 1]],
  sample_loss_mask: [1],
  generation_logprobs: [[0, -0.1, -0.2]],
  prev_logprobs: [[0, -0.11, -0.19]],
  idx,
});
const deep = "[".repeat(MAX_DEPTH) + "]".repeat(MAX_DEPTH);

const LINES = [
  JSON.stringify(good(0)),
  "",
  "   ",
  JSON.stringify(good(1)) + "\r",
  JSON.stringify(good(2)).replace("-0.19", "NaN"),
  "{not json",
  JSON.stringify({ ...good(3), rewards: ["one"] }),
  JSON.stringify({ ...good(4), prev_logprobs: [[0, 1]] }),
  JSON.stringify(good(5)).replace('["hi"]', `[${deep}]`),
  JSON.stringify({ ...good(6), extra_key: JSON.parse(deep) as unknown }),
  JSON.stringify(good(7)),
  '{"idx": 8, "token_ids": [[1,', // torn: no newline after it
];

async function both(f: StepFile) {
  const whole: StepSample[] = [];
  const wholeIssues = await eachStepSample(f, (s) => void whole.push(s));
  const stream = await readStepFile(f);
  return { whole, wholeIssues, stream };
}

describe("the whole-file step reader", () => {
  it("gives the streaming reader's samples and issues, line for line", async () => {
    const { whole, wholeIssues, stream } = await both(stepFile(LINES.join("\n")));
    expect(whole).toEqual(stream.samples);
    expect(wholeIssues).toEqual(stream.issues);
    // Lines 1, 4, 5 and 11 are samples (NaN kept as a number); 6–10 and the torn 12 are issues.
    expect(whole.map((s) => s.line)).toEqual([1, 4, 5, 11]);
    expect(Number.isNaN(whole[2]?.prevLogprobs?.[2])).toBe(true);
    expect(wholeIssues.map((i) => i.line)).toEqual([6, 7, 8, 9, 10, 12]);
  });

  it("hands a file with NUL bytes to the streaming reader", async () => {
    const text = Buffer.concat([
      Buffer.from(JSON.stringify(good(0)) + "\n"),
      Buffer.alloc(16),
      Buffer.from("\n" + JSON.stringify(good(1)) + "\n"),
    ]);
    const { whole, wholeIssues, stream } = await both(stepFile(text));
    expect(whole).toEqual(stream.samples);
    expect(wholeIssues).toEqual(stream.issues);
    expect(wholeIssues.map((i) => i.line)).toEqual([2]);
  });
});
