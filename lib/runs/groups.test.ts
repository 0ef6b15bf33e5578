// GRPO groups: advantages checked against values worked by hand from NeMo-RL's formulas
// (leave-one-out baseline, ÷ (sample std of the others + 1e-6)), and grpo-capture-on's records
// (read here with JSON.parse, not the app's reader) grouped by task and step.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { InvalidInputError } from "@/lib/errors";
import { grpoAdvantages, parseGroupsQuery, spreadOf } from "./groups";
import { runGroups } from "@/lib/testing/groups-reference";

const LOO = { baseline: "leave_one_out", normalize: true } as const;
const all = (n: number) => Array<boolean>(n).fill(true);

describe("grpoAdvantages", () => {
  it("leave-one-out, normalised (NeMo-RL's default) on rewards 1, 1, 0, 1", () => {
    // A 1's others are 1, 0, 1: mean 2/3, sample variance ((1/3)² + (2/3)² + (1/3)²) / 2 = 1/3.
    const up = 1 / 3 / (Math.sqrt(1 / 3) + 1e-6);
    // The 0's others are 1, 1, 1: baseline 1, std 0, so not divided.
    const got = grpoAdvantages([1, 1, 0, 1], all(4), LOO);
    [up, up, -1, up].forEach((v, i) => expect(got[i]).toBeCloseTo(v, 12));
  });

  it("leave-one-out without normalising: a pair 1, 0 gets +1 and −1 (NeMo-RL's own test)", () => {
    expect(grpoAdvantages([1, 0], all(2), { ...LOO, normalize: false })).toEqual([1, -1]);
  });

  it("group mean, normalised: classic GRPO (r − mean) / (sample std + 1e-6)", () => {
    // Mean 0.5; sample variance (4 × 0.25) / 3 = 1/3.
    const v = 0.5 / (Math.sqrt(1 / 3) + 1e-6);
    const got = grpoAdvantages([1, 0, 1, 0], all(4), { baseline: "group_mean", normalize: true });
    [v, -v, v, -v].forEach((x, i) => expect(got[i]).toBeCloseTo(x, 12));
  });

  it("equal rewards, a single reward: every advantage exactly 0 (no float residue)", () => {
    expect(grpoAdvantages([0.1, 0.1, 0.1], all(3), LOO)).toEqual([0, 0, 0]);
    expect(grpoAdvantages([5], all(1), LOO)).toEqual([0]);
  });

  it("a missing reward and a masked rollout do not vote and get no advantage", () => {
    expect(grpoAdvantages([1, null, 0], all(3), LOO)).toEqual([1, null, -1]);
    // Voting 1, 0, 0: the 1's others are 0, 0 (std 0) → 1; a 0's others are 1, 0 → −0.5 / √0.5.
    const got = grpoAdvantages([1, 1, 0, 0], [true, false, true, true], LOO);
    expect(got[0]).toBe(1);
    expect(got[1]).toBeNull();
    expect(got[2]).toBeCloseTo(-0.5 / (Math.sqrt(0.5) + 1e-6), 12);
  });
});

describe("spreadOf", () => {
  it("mean, sample std, min and max of 1, 1, 0, 1", () => {
    // Deviations .25, .25, −.75, .25: squares sum to .75, ÷ 3 = .25, std .5.
    expect(spreadOf([1, 1, 0, 1])).toEqual({ mean: 0.75, std: 0.5, min: 0, max: 1 });
    expect(spreadOf([])).toEqual({ mean: null, std: null, min: null, max: null });
  });
});

/** grpo-capture-on's records as the file holds them, keyed `<task>-<rollout>` (Gym's id). */
function fixtureRecords(): Map<string, Record<string, unknown>> {
  const text = readFileSync(path.join(RUNS_DIR, "grpo-capture-on", "rollouts.jsonl"), "utf8");
  const rows = text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return new Map(
    rows.map((r) => [`${String(r._ng_task_index)}-${String(r._ng_rollout_index)}`, r]),
  );
}

describe("runGroups over grpo-capture-on", () => {
  const records = fixtureRecords();
  const q = (qs: string) => parseGroupsQuery(new URLSearchParams(qs));

  it("groups by task index and step by default, flagging the equal-reward groups", () => {
    const g = runGroups(records, q(""));
    expect(g.by).toBe("_ng_task_index");
    // Worked from the file: tasks 0–1 in step 0, 2–3 in step 1, 4–5 in step 2, four rollouts each.
    expect(g.groups.map((x) => [x.step, x.key, x.rewards, x.no_signal])).toEqual([
      [0, 0, [1, 1, 0, 1], false],
      [0, 1, [1, 1, 1, 1], true],
      [1, 2, [1, 1, 1, 0], false],
      [1, 3, [1, 1, 1, 1], true],
      [2, 4, [1, 0, 1, 0], false],
      [2, 5, [0, 1, 1, 0], false],
    ]);
    expect(g.per_step).toEqual([
      { step: 0, groups: 2, no_signal: 1, no_rewards: 0 },
      { step: 1, groups: 2, no_signal: 1, no_rewards: 0 },
      { step: 2, groups: 2, no_signal: 0, no_rewards: 0 },
    ]);
    expect(g.groups[0]!.members.map((m) => m.rollout_id)).toEqual(["0-0", "0-1", "0-2", "0-3"]);
    expect(g.groups[1]!.members.every((m) => m.advantage === 0)).toBe(true);
    expect(g.groups[0]!.members[2]!.advantage).toBe(-1);
    expect(g.ungrouped).toBe(0);
    expect(g.max_group_size).toBe(4);
  });

  it("filters by step and signal and pages; per_step always counts every group", () => {
    const g = runGroups(records, q("signal=none"));
    expect(g.total).toBe(2);
    expect(g.groups.map((x) => x.key)).toEqual([1, 3]);
    const s = runGroups(records, q("step=2&limit=1&offset=1"));
    expect([s.total, s.groups.map((x) => x.key)]).toEqual([2, [5]]);
    expect(s.per_step).toHaveLength(3);
  });

  it("groups by another field; a field that is not one is a 400 listing the allowed", () => {
    const g = runGroups(records, q("by=agent_ref.name"));
    expect(g.groups.map((x) => [x.step, x.key, x.n])).toEqual([
      [0, "math_with_python", 8],
      [1, "math_with_python", 8],
      [2, "math_with_python", 8],
    ]);
    const bad = () => runGroups(records, q("by=nope"));
    expect(bad).toThrow(InvalidInputError);
    expect(bad).toThrow(/by: "nope" is not a scalar field.*allowed: .*"_ng_task_index"/);
    expect(() => q("baseline=median")).toThrow(/baseline/);
  });

  it("a group whose records carry no reward is not said to lack a signal: it is not known", () => {
    const recs = new Map<string, Record<string, unknown>>([
      ["0-0", { _ng_task_index: 0, step: 0 }],
      ["0-1", { _ng_task_index: 0, step: 0 }],
      ["1-0", { _ng_task_index: 1, step: 0, reward: 1 }],
      ["1-1", { _ng_task_index: 1, step: 0, reward: 1 }],
    ]);
    const g = runGroups(recs, q(""));
    expect(g.groups.map((x) => [x.key, x.no_signal])).toEqual([
      [0, false],
      [1, true],
    ]);
    expect(g.per_step).toEqual([{ step: 0, groups: 2, no_signal: 1, no_rewards: 1 }]);
  });

  it("records without a task index: no groups and by null", () => {
    const g = runGroups(new Map([["a", { reward: 1 }]]), q(""));
    expect([g.by, g.groups, g.ungrouped]).toEqual([null, [], 1]);
  });
});
