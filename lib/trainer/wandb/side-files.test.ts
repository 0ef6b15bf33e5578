import { describe, expect, it } from "vitest";
import { jsonErrorOffset } from "./json-value";
import { parseConfigYaml, parseMetadataJson, parseSummaryJson } from "./side-files";

// As wandb writes it: the legacy Python SDK's `wandb_version: 1` and {desc, value} per key,
// wandb-core's {value} per key, and W&B's own `_wandb` block.
const CONFIG_YAML = `wandb_version: 1

_wandb:
  desc: null
  value:
    cli_version: 0.19.1
    t:
      "1": [1, 5, 53]
learning_rate:
  desc: null
  value: 3.0e-06
model:
  value:
    name: Qwen/Qwen2.5-7B
    layers: 28
tags:
  desc: null
  value:
  - grpo
  - math
diverged:
  value: .nan
`;

describe("config.yaml", () => {
  it("takes each key's value, leaving out W&B's own keys", () => {
    expect(parseConfigYaml(CONFIG_YAML, "files/config.yaml")).toEqual({
      value: {
        learning_rate: 3e-6,
        model: { name: "Qwen/Qwen2.5-7B", layers: 28 },
        tags: ["grpo", "math"],
        diverged: "NaN",
      },
      notes: [],
    });
  });

  it("notes a malformed file with its line, and reads nothing from it", () => {
    const bad = "lr:\n  value: 0.1\nseed:\n  value: [1, 2\nname:\n  value: x\n";
    const out = parseConfigYaml(bad, "run/files/config.yaml");
    expect(out.value).toEqual({});
    expect(out.notes).toHaveLength(1);
    expect(out.notes[0]).toMatch(
      /^run\/files\/config\.yaml: line \d+: not valid YAML \(.+\); not read$/,
    );
    expect(parseConfigYaml("a: 1\n  b: 2\n", "c.yaml").notes[0]).toMatch(/^c\.yaml: line 1: /);
  });

  it("never throws: a list, an empty file, an alias of itself", () => {
    expect(parseConfigYaml("- a\n- b\n", "c.yaml").notes).toEqual([
      "c.yaml: line 1: not a mapping of keys; not read",
    ]);
    expect(parseConfigYaml("", "c.yaml")).toEqual({ value: {}, notes: [] });
    const loop = parseConfigYaml("x: &a\n  value: [*a]\n", "c.yaml");
    expect(loop.value).toEqual({ x: "[a value that contains itself]" });
    const bomb = `a: &a [x, x, x, x, x, x, x, x, x]\n${Array.from(
      { length: 12 },
      (_, i) =>
        `b${i}: &b${i} [${Array(9)
          .fill(i === 0 ? "*a" : `*b${i - 1}`)
          .join(", ")}]`,
    ).join("\n")}\n`;
    expect(() => parseConfigYaml(bomb, "c.yaml")).not.toThrow();
  });
});

describe("wandb-summary.json", () => {
  it("keeps each key's value, NaN as W&B's literal", () => {
    const text = '{"loss": NaN, "_step": 99, "eval": {"acc": 0.5}, "best": -Infinity}';
    expect(parseSummaryJson(text, "s.json")).toEqual({
      value: { loss: "NaN", _step: 99, eval: { acc: 0.5 }, best: "-Infinity" },
      notes: [],
    });
  });

  it("notes a file that is not a JSON object, with the line", () => {
    expect(parseSummaryJson('{\n  "a": 1,\n  "b": }\n', "s.json")).toMatchObject({
      value: {},
      notes: [expect.stringMatching(/^s\.json: line 3: not valid JSON/)],
    });
    expect(parseSummaryJson("[1]", "s.json").notes).toEqual([
      "s.json: line 1: not a JSON object; not read",
    ]);
  });
});

describe("wandb-metadata.json", () => {
  it("keeps the named facts, dropping any of an unexpected type", () => {
    const text = JSON.stringify({
      os: "Linux-6.8",
      python: "CPython 3.11.9",
      startedAt: "2024-05-01T12:00:00.000000Z",
      program: "/src/train.py",
      codePath: "train.py",
      args: ["--lr", "3e-6"],
      host: "node-1",
      gpu: "NVIDIA H100 80GB HBM3",
      gpu_count: "eight",
      cpu_count: 96,
      git: { remote: "https://example.com/r.git", commit: "abc123" },
      email: "someone@example.com",
      disk: { "/": { total: "1" } },
    });
    expect(parseMetadataJson(text, "m.json")).toEqual({
      value: {
        os: "Linux-6.8",
        python: "CPython 3.11.9",
        started_at: "2024-05-01T12:00:00.000000Z",
        program: "/src/train.py",
        code_path: "train.py",
        args: ["--lr", "3e-6"],
        host: "node-1",
        gpu: "NVIDIA H100 80GB HBM3",
        cpu_count: 96,
        git_remote: "https://example.com/r.git",
        git_commit: "abc123",
      },
      notes: [],
    });
  });

  it("reads nothing, with a note, from a file that does not parse", () => {
    expect(parseMetadataJson('{"host": ', "m.json")).toEqual({
      value: {},
      notes: [expect.stringMatching(/^m\.json: line 1: not valid JSON/)],
    });
  });
});

describe("where W&B's JSON breaks", () => {
  it("finds the offset of the first bad character, or -1", () => {
    for (const ok of ['{"a": [1, -2.5e3, NaN, -Infinity, "x\\"y"], "b": {}}', "[]", " 1 ", "null"])
      expect(jsonErrorOffset(ok), ok).toBe(-1);
    const cases: Array<[string, number]> = [
      ['{"a": }', 6],
      ["[1,,2]", 3],
      ['{"a" 1}', 5],
      ["[1, 2", 5],
      ["{a: 1}", 1],
      ["1 2", 2],
      ["[1}", 2],
      ["", 0],
    ];
    for (const [text, at] of cases) expect(jsonErrorOffset(text), text).toBe(at);
    expect(jsonErrorOffset("[".repeat(100000))).toBe(100000);
  });
});
