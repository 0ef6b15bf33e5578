import { describe, expect, it } from "vitest";
import {
  frameWandbPayloads,
  wandbConfig,
  wandbExit,
  wandbRun,
  wandbRunFile,
  wandbSummary,
} from "@/lib/testing/wandb-file";
import { SeriesCollector } from "../scalar-series";
import { MAX_FACT_KEYS, MAX_VALUE_CHARS, mergeFacts, type WandbFacts } from "./facts";
import { encodeRecord } from "./proto";
import { parseWandbFile } from "./read";

function read(bytes: Buffer, rel = "run-abc.wandb") {
  return parseWandbFile(bytes, rel, new SeriesCollector());
}

describe("the run's facts", () => {
  // Records hand-encoded field by field (a throwaway Python varint encoder) from the numbers in
  // wandb/proto/wandb_internal.proto: Record.run = 17 {run_id 1, entity 2, project 3,
  // display_name 8, start_time 17 {seconds 1, nanos 2}} and {run_group 6, job_type 7, tags 10};
  // Record.config = 5 {update 1 {key 1, value_json 16}, remove 2 {nested_key 2}};
  // Record.summary = 3; Record.exit = 18 {exit_code 1}.
  const HAND_ENCODED = [
    "8a01270a0361626312036c61621a046772706f42076c722d33652d368a010b0880e2cfaa061080e59a77",
    "2a1a0a0a0a026c72820103302e31120c12036f707412056265746131",
    "1a140a1212046576616c1203616363820104302e3735",
    "9201020803",
    "8a0114320573656564733a05747261696e520161520162",
  ];

  it("decodes records encoded from wandb's own field numbers", () => {
    const { bytes } = frameWandbPayloads(HAND_ENCODED.map((h) => Buffer.from(h, "hex")));
    const { facts, notes, records } = read(bytes);
    expect(notes).toEqual([]);
    expect(records).toBe(5);
    expect(facts).toEqual({
      run_id: "abc",
      entity: "lab",
      project: "grpo",
      display_name: "lr-3e-6",
      run_group: "seeds",
      job_type: "train",
      tags: ["a", "b"],
      start_time: 1700000000.25,
      config: { lr: 0.1 },
      summary: { "eval.acc": 0.75 },
      exit_code: 3,
    });
  });

  it("reads ids, names, start time and exit code", () => {
    const { facts } = read(
      wandbRunFile([
        wandbRun({
          run_id: "abc",
          project: "grpo",
          display_name: "lr-3e-6",
          entity: "lab",
          start_time: 1700000000.25,
        }),
        wandbExit(3),
      ]),
    );
    expect(facts).toEqual({
      run_id: "abc",
      project: "grpo",
      entity: "lab",
      display_name: "lr-3e-6",
      start_time: 1700000000.25,
      config: {},
      summary: {},
      exit_code: 3,
    });
  });

  it("takes a later run record's non-empty names over an earlier one's", () => {
    const { facts } = read(
      wandbRunFile([
        { run: { run_id: "a", display_name: "first", run_group: "seeds", tags: ["grpo"] } },
        { run: { run_id: "a", display_name: "second", job_type: "train" } },
      ]),
    );
    expect(facts).toEqual({
      run_id: "a",
      display_name: "second",
      run_group: "seeds",
      job_type: "train",
      tags: ["grpo"],
      config: {},
      summary: {},
    });
  });

  // The first two records of a run file wandb 0.10.20 wrote, from wandb's own repository
  // (tests/assets/wandb/offline-run-20210216_154407-g9dvvkua/run-g9dvvkua.wandb, MIT licence): an
  // empty HeaderRecord and the RunRecord, CRCs as that wandb computed them.
  const WANDB_0_10_20 =
    "3a572642e1be008e510c54030001aa01005a9ec1d8a8000182010208018a017d0a0867396476766b75611a09636f" +
    "64652d746f616422400a3e0a065f77616e64628201337b22636f64655f70617468223a2022636f64652f7374616e" +
    "64616c6f6e655f74657374732f636f64652d746f61642e7079227d6a036376708a010608c7b1b181069a01152205" +
    "332e372e352a0c302e31302e32302e646576319a01203165636237353262353932613435363162623234343963313464373530616662";

  it("reads the start of a run file that wandb itself wrote", () => {
    const { facts, notes, records } = read(Buffer.from(WANDB_0_10_20, "hex"));
    expect(notes).toEqual([]);
    expect(records).toBe(2);
    // Its config holds only W&B's own `_wandb` entry, which is not a hyperparameter.
    expect(facts).toEqual({
      run_id: "g9dvvkua",
      project: "code-toad",
      start_time: 1613519047,
      config: {},
      summary: {},
    });
  });

  it("reads an exit code of 0 (left off the wire by proto3)", () => {
    expect(read(wandbRunFile([wandbExit(0)])).facts.exit_code).toBe(0);
  });

  it("applies config and summary updates and removes in order, nested keys joined", () => {
    const { facts, notes } = read(
      wandbRunFile([
        { run: { run_id: "abc", config: { update: [{ key: "seed", value_json: "1" }] } } },
        wandbConfig({ lr: 3e-6, model: { name: "qwen", layers: 28 }, "opt.beta1": 0.9 }),
        wandbConfig({ lr: 1e-6 }, ["seed"]),
        wandbSummary({ "eval.acc": 0.5, loss: NaN, best: 1 }),
        wandbSummary({ "eval.acc": 0.75 }, ["best"]),
      ]),
    );
    expect(notes).toEqual([]);
    expect(facts.config).toEqual({
      lr: 1e-6,
      model: { name: "qwen", layers: 28 },
      "opt.beta1": 0.9,
    });
    expect(facts.summary).toEqual({ "eval.acc": 0.75, loss: "NaN" });
  });

  it("removes what was set under a key by nested keys when the key is removed", () => {
    const { facts } = read(
      wandbRunFile([
        wandbSummary({ "eval.acc": 1, "eval.f1": 2, evaluation: 3 }),
        wandbSummary({}, ["eval"]),
      ]),
    );
    expect(facts.summary).toEqual({ evaluation: 3 });
  });

  it("bounds config and summary: so many keys, values so long, with notes", () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_FACT_KEYS + 20 }, (_, i) => [`k${i}`, i]),
    );
    const { facts, notes } = read(
      wandbRunFile([
        wandbSummary(many),
        wandbConfig({ prompt: "x".repeat(5000), list: Array(3000).fill(1) }),
      ]),
    );
    expect(Object.keys(facts.summary)).toHaveLength(MAX_FACT_KEYS);
    expect(facts.config.prompt).toBe(`${"x".repeat(MAX_VALUE_CHARS)}…`);
    expect(typeof facts.config.list).toBe("string");
    expect(notes).toEqual([
      "run-abc.wandb: config: 2 values longer than 2000 characters were cut",
      "run-abc.wandb: summary: 20 more keys past the first 500 were not kept",
    ]);
  });

  it("notes a config value that is not JSON and keeps the rest", () => {
    const { bytes, offsets } = frameWandbPayloads([
      encodeRecord({
        config: {
          update: [
            { key: "lr", value_json: "0.1" },
            { key: "bad", value_json: "nope" },
          ],
        },
      }),
    ]);
    const { facts, notes } = read(bytes);
    expect(facts.config).toEqual({ lr: 0.1 });
    expect(notes).toEqual([
      `run-abc.wandb: byte ${offsets[0]}: 1 values that are not JSON; skipped`,
    ]);
  });
});

describe("mergeFacts: the side files fill only what the run file lacks", () => {
  const binary: WandbFacts = {
    run_id: "abc",
    config: { lr: 1e-6, "opt.beta1": 0.9 },
    summary: { loss: 0.5 },
  };

  it("fills missing names, times and keys, and keeps the run file's where both have one", () => {
    const merged = mergeFacts(binary, {
      config: { lr: 3e-6, seed: 1, opt: { beta1: 0.8 } },
      summary: { loss: 9, "eval.acc": 0.7 },
      metadata: { host: "node-1", started_at: "2024-05-01T12:00:00.500Z" },
    });
    expect(merged).toEqual({
      run_id: "abc",
      config: { lr: 1e-6, "opt.beta1": 0.9, seed: 1 },
      summary: { loss: 0.5, "eval.acc": 0.7 },
      metadata: { host: "node-1", started_at: "2024-05-01T12:00:00.500Z" },
      start_time: Date.UTC(2024, 4, 1, 12, 0, 0, 500) / 1000,
    });
  });

  it("reads a start time without a zone as UTC, as W&B writes it", () => {
    const merged = mergeFacts(binary, { metadata: { started_at: "2021-02-16T23:44:07.003488" } });
    expect(merged.start_time).toBeCloseTo(1613519047.003, 3);
  });

  it("keeps the run file's start time, and leaves the inputs as they were", () => {
    const withTime = { ...binary, start_time: 5 };
    const merged = mergeFacts(withTime, { metadata: { started_at: "2024-05-01T12:00:00Z" } });
    expect(merged.start_time).toBe(5);
    expect(withTime.config).toEqual({ lr: 1e-6, "opt.beta1": 0.9 });
  });

  it("never goes past the key bound", () => {
    const side = Object.fromEntries(
      Array.from({ length: 2 * MAX_FACT_KEYS }, (_, i) => [`k${i}`, i]),
    );
    expect(Object.keys(mergeFacts(binary, { summary: side }).summary)).toHaveLength(MAX_FACT_KEYS);
  });
});

describe("keys that are JavaScript's own words", () => {
  it("keeps a user's `__proto__` key as data", () => {
    const own = JSON.parse('{"__proto__": 1, "constructor": 2}') as Record<string, unknown>;
    const { facts } = read(wandbRunFile([wandbConfig(own)]));
    expect(Object.getPrototypeOf(facts.config)).toBe(Object.prototype);
    expect(Object.entries(facts.config)).toEqual([
      ["__proto__", 1],
      ["constructor", 2],
    ]);
    const merged = mergeFacts(
      { config: {}, summary: {} },
      { summary: JSON.parse('{"__proto__": 3}') },
    );
    expect(Object.getPrototypeOf(merged.summary)).toBe(Object.prototype);
    expect(Object.entries(merged.summary)).toEqual([["__proto__", 3]]);
  });
});
