// Sides of several runs through compareRuns: the fixture seed groups (fixtures/generator/
// grpo-seed-groups: grpo-seeds-on-1..3, grpo-seeds-off-1..2, metrics.jsonl only) and a temp root
// with one run against a group. Expected series are read from the metrics.jsonl files here.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { InvalidInputError, UnknownRunError } from "@/lib/errors";
import { comparisonSchema } from "@/lib/schema";
import { compareRuns } from "./load";
import { sideIds } from "./sides";

const prev = process.env.ROLLOUT_LENS_RUNS;
const useRoot = (root: string) => void (process.env.ROLLOUT_LENS_RUNS = root);
beforeAll(() => useRoot(RUNS_DIR));
afterAll(() => {
  if (prev === undefined) delete process.env.ROLLOUT_LENS_RUNS;
  else process.env.ROLLOUT_LENS_RUNS = prev;
});

/** step → reward of a fixture run's metrics.jsonl. */
const rewards = (run: string, root = RUNS_DIR) =>
  readFileSync(path.join(root, run, "metrics.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { step: number; reward: number });

const ON = ["grpo-seeds-on-1", "grpo-seeds-on-2", "grpo-seeds-on-3"];
const OFF = ["grpo-seeds-off-1", "grpo-seeds-off-2"];

describe("sides of several runs", () => {
  it("parses a list: trimmed, empty items and repeats dropped", () => {
    expect(sideIds(" r1, r2,,r1 ,")).toEqual(["r1", "r2"]);
    expect(sideIds("r1")).toEqual(["r1"]);
  });

  it("one run with a seed_group is its whole group; Welch on the seeds, mean lines and bands", async () => {
    const c = comparisonSchema.parse(
      await compareRuns("grpo-seeds-on-2", "grpo-seeds-off-1", null),
    );
    expect(c.sides.a).toMatchObject({ from: "seed_group", seed_group: "grpo-seeds-on" });
    expect(c.sides.a.runs.map((r) => r.id)).toEqual([
      "grpo-seeds-on-2",
      "grpo-seeds-on-1",
      "grpo-seeds-on-3",
    ]);
    expect(c.sides.b.runs.map((r) => r.id)).toEqual(OFF);
    expect(c.a.id).toBe("grpo-seeds-on-2");
    expect(c.scalar).toBe("reward");
    expect(c.baseline).toMatchObject({
      run: { id: "grpo-seeds-off-2" },
      against: { id: "grpo-seeds-off-1" },
      chosen: "seed_group",
    });
    const t = c.training!;
    expect(t.steps).toBe(100);
    expect(t.calibrated.yardstick).toBe("seeds");
    expect([t.calibrated.seeds!.a.n, t.calibrated.seeds!.b.n]).toEqual([3, 2]);
    // Per step: the mean over each side's seeds and ± one sample sd across them.
    const on = ON.map((r) => rewards(r)),
      off = OFF.map((r) => rewards(r));
    for (const step of [0, 37, 99]) {
      const xs = on.map((r) => r[step]!.reward);
      const m = xs.reduce((s, x) => s + x, 0) / 3;
      const sd = Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / 2);
      expect(t.series[step]!.a).toBeCloseTo(m, 12);
      expect(t.series[step]!.b).toBeCloseTo(
        (off[0]![step]!.reward + off[1]![step]!.reward) / 2,
        12,
      );
      expect(t.band!.a![step]!.low).toBeCloseTo(m - sd, 12);
      expect(t.band!.a![step]!.high).toBeCloseTo(m + sd, 12);
    }
    expect(t.band!.b).toHaveLength(100);
    // Each run's mean over the 100 shared steps, as the test's own sum.
    const runMean = (r: { reward: number }[]) => r.reduce((s, x) => s + x.reward, 0) / r.length;
    expect(t.calibrated.seeds!.b.runs.map((r) => r.mean)).toEqual(
      off.map((r) => expect.closeTo(runMean(r), 12)),
    );
    expect(t.floor_test).toBeNull();
    expect(t.headline).toMatch(
      /^No difference we can detect in \S+: grpo-seeds-on \(3 seeds\) 0\.\d+ vs grpo-seeds-off \(2 seeds\) /,
    );
    expect(t.verdict).toMatch(
      /^a is 3 seeds \(seed_group grpo-seeds-on: grpo-seeds-on-2, grpo-seeds-on-1, grpo-seeds-on-3\), b is 2 seeds/,
    );
    expect(t.verdict).toMatch(/tested against the spread between each side's seeds \(Welch's t\)/);
    expect(t.verdict).toMatch(/Welch t = -?\d\.\d\d, \d\.\d df/);
    expect(c.notes.join(" ")).toMatch(
      /Evaluation and capture health compare each side's first run/,
    );
  });

  it("a list is those runs only, named by their ids", async () => {
    const c = await compareRuns("grpo-seeds-on-1, grpo-seeds-on-3", "grpo-seeds-off-1", null);
    expect(c.sides.a).toMatchObject({
      from: "list",
      seed_group: null,
      label: "{grpo-seeds-on-1, grpo-seeds-on-3}",
    });
    expect(c.sides.a.runs.map((r) => r.id)).toEqual(["grpo-seeds-on-1", "grpo-seeds-on-3"]);
    expect(c.training!.calibrated.seeds!.a.n).toBe(2);
  });

  it("names the id of a list that is not a run, and refuses an empty side", async () => {
    const err = await compareRuns("grpo-seeds-on-1,nope", "grpo-seeds-off-1", null).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UnknownRunError);
    expect(String(err)).toMatch(/no run "nope"/);
    await expect(compareRuns(",", "grpo-seeds-off-1", null)).rejects.toBeInstanceOf(
      InvalidInputError,
    );
  });
});

describe("one run against a seed group (a temp root)", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-sides-"));
  const write = (id: string, manifest: object, level: number, k: number) => {
    mkdirSync(path.join(root, id));
    writeFileSync(path.join(root, id, "run.json"), JSON.stringify(manifest));
    const rows = Array.from({ length: 40 }, (_, step) => ({
      step,
      reward: level + 0.01 * Math.sin(step * k) + step / 400,
    }));
    writeFileSync(
      path.join(root, id, "metrics.jsonl"),
      rows.map((r) => JSON.stringify(r)).join("\n") + "\n",
    );
  };
  beforeAll(() => {
    write("solo", {}, 0.5, 1.3);
    for (const [i, level] of [0.5, 0.502, 0.499].entries())
      write(`g${i + 1}`, { seed_group: "g" }, level, 0.7 + i);
    useRoot(root);
  });
  afterAll(() => useRoot(RUNS_DIR));

  it("falls back to the seed pair, from the group's first two seeds, and says so", async () => {
    const c = await compareRuns("solo", "g1", null);
    expect(c.sides.a).toMatchObject({ from: "run", label: "solo" });
    expect(c.sides.b.runs.map((r) => r.id)).toEqual(["g1", "g2", "g3"]);
    expect(c.baseline).toMatchObject({
      run: { id: "g2" },
      against: { id: "g1" },
      chosen: "seed_group",
    });
    const t = c.training!;
    expect(t.calibrated.yardstick).toBe("seed_pair");
    expect(t.calibrated.seeds).toBeNull();
    expect(t.band).toMatchObject({ a: null });
    expect(t.band!.b).toHaveLength(40);
    expect(t.verdict).toMatch(
      /^a is 1 run \(solo\), b is 3 seeds \(seed_group g: g1, g2, g3\); with one run on a side there is no spread between seeds on both sides, so each side's per-step mean is tested against the seed pair g2 vs g1/,
    );
    expect(t.headline).toMatch(/solo \(1 run\) .* vs g \(3 seeds\) /);
    // The mean test pairs solo with the group's per-step mean, not with g1 alone.
    const mean = (id: string) => rewards(id, root).reduce((s, r) => s + r.reward, 0) / 40;
    const groupMean = (mean("g1") + mean("g2") + mean("g3")) / 3;
    expect(t.calibrated.paired!.mean).toBeCloseTo(mean("solo") - groupMean, 12);
  });
});
