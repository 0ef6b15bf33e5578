// Expected numbers come from lib/compare/reference.py (numpy/scipy), not from this code.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, afterAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { computeHealth } from "@/lib/testing/health-reference";
import { trainingComparisonSchema } from "@/lib/schema";
import { compareTraining } from "./comparison";
import { compareRuns } from "./load";

const prev = process.env.ROLLOUT_LENS_RUNS;
beforeAll(() => void (process.env.ROLLOUT_LENS_RUNS = RUNS_DIR));
afterAll(() => {
  if (prev === undefined) delete process.env.ROLLOUT_LENS_RUNS;
  else process.env.ROLLOUT_LENS_RUNS = prev;
});

describe("capture on versus off (GRPO training runs)", () => {
  it("correlation, floor from the seed repeat, intervals and the verdict", async () => {
    // On the event files' `train/reward` (float32; the runs keep no metrics.jsonl), the default and
    // reference.py's input (its own decoder of the event files).
    const c = await compareRuns("grpo-capture-on", "grpo-capture-off", null);
    expect(c.scalar).toBe("train/reward");
    expect(c.baseline).toMatchObject({
      run: { id: "grpo-capture-off-seed2" },
      against: { id: "grpo-capture-off" },
      chosen: "seed_repeat_of",
    });
    const t = c.training!;
    expect(t.steps).toBe(100);
    expect(t.correlation).toBeCloseTo(0.9429564976492388, 12);
    expect(t.floor!.correlation).toBeCloseTo(0.9520194821437309, 12);
    expect(t.floor_test!.p).toBeCloseTo(0.26806557682662624, 6);
    expect([t.mean_a.estimate, t.mean_a.low, t.mean_a.high]).toEqual([
      expect.closeTo(0.5520029991865159, 10),
      expect.closeTo(0.5427996741756796, 10),
      expect.closeTo(0.5615171227976681, 10),
    ]);
    expect([t.diff.estimate, t.diff.low, t.diff.high]).toEqual([
      expect.closeTo(0.0059990021586419084, 10),
      expect.closeTo(-0.006891497530043187, 10),
      expect.closeTo(0.01906702782213686, 10),
    ]);
    // The calibrated verdict (reference.py calibrated, on the three fixture series): the verdict's
    // words changed with its method (was: the independent-bootstrap CI and Fisher's z).
    const cal = t.calibrated;
    expect(cal.decision).toBe("within_noise");
    expect(t.within_noise).toBe(true);
    expect(cal.paired).toMatchObject({
      steps: 100,
      block_length: 1,
      mean: expect.closeTo(0.005999002158641815, 12),
    });
    expect(cal.paired!.sd).toBeCloseTo(0.0016661644446339518, 12);
    expect(cal.seed_pair).toMatchObject({
      run: "grpo-capture-off-seed2",
      against: "grpo-capture-off",
      mean: expect.closeTo(0.002997003495693207, 12),
      sd: expect.closeTo(0.0014942256035724542, 12),
    });
    expect(cal.mean_test).toMatchObject({
      t: expect.closeTo(1.7494833646271397, 8),
      df: expect.closeTo(1.7120204671766142, 8),
      p: expect.closeTo(0.24286460388457043, 8),
      low: expect.closeTo(-0.013940329462048866, 8),
      high: expect.closeTo(0.025938333779332495, 8),
      level: 0.96,
    });
    expect(cal.correlation_test).toMatchObject({
      method: "steiger",
      shared: "grpo-capture-off",
      z: expect.closeTo(0.911855978502707, 10),
      p: expect.closeTo(0.18092226888541968, 6),
    });
    expect(t.verdict).toMatch(
      /^Within run-to-run noise \(5% level in all: the mean's t test at 4%, the distributions' at 0\.5%; the correlation's at 0\.5%\): grpo-capture-on − grpo-capture-off = \+0\.006 per step, while two seeds of one configuration differ by \+0\.003 \(grpo-capture-off-seed2 vs grpo-capture-off\); counting that run-to-run shift, the 96\.0% interval is −0\.014 to \+0\.026 \(t = 1\.75, 1\.7 df, p = 0\.243\)/,
    );
    expect(t.verdict).toMatch(/correlation 0\.943 is not below the floor 0\.952 \(Steiger z/);
    // The headline in plain words: no real reward difference is planted (fixtures/generator: one
    // curve family for all three GRPO runs), means over the 100 shared steps and the seed gap.
    expect(t.headline).toBe(
      "No difference we can detect in train/reward: grpo-capture-on 0.552 vs grpo-capture-off 0.546; two seeds of the same setup differ by about 0.003; with this evidence (1.7 df) a shift smaller than about ±0.020 would not be told apart.",
    );
    expect(cal.shape_test).toMatchObject({ fired: false, heavy_tailed: false });
    expect(t.series[10]).toMatchObject({ step: 10 });
    expect(t.series[10]!.a_rolling).toBeCloseTo(
      t.series.slice(1, 11).reduce((s, p) => s + p.a, 0) / 10,
      12,
    );
    // The capturing run's trainer logs the capture's counters (token_capture/*, 0 every step in
    // the fixture's event file), summed over its 100 steps; the capture-off run logs none.
    expect(c.capture.a.logged).toEqual({
      "token_capture/masked_fraction": 0,
      "token_capture/staging_failures": 0,
      "token_capture/invalid_rows": 0,
    });
    expect(c.capture.b.logged).toEqual({});
    expect(c.capture.a).toMatchObject({
      rollouts: 24,
      masked: 0,
      capture_failures: 0,
      invalid_rows: 0,
    });
  });

  it("token_mult_prob_error: the planted capture-off drift (mean 0.0412 vs 0.0021 above 1, with spikes) differs", async () => {
    // fixtures/generator/tensorboard.ts plants mismatch means 1.0021 (on) vs 1.0412 (off) and the
    // step files add re-tokenization spikes to capture off; the two capture-off seeds share a
    // distribution. The mean test cannot see it through the spikes; the distribution test must.
    const c = await compareRuns(
      "grpo-capture-on",
      "grpo-capture-off",
      null,
      "train/token_mult_prob_error",
    );
    const t = c.training!;
    expect(t.calibrated.decision).toBe("differs");
    expect(t.within_noise).toBe(false);
    expect(t.calibrated.shape_test).toMatchObject({ fired: true, heavy_tailed: true });
    // The medians sit near the planted levels (uniform spread ±0.0008 on, ±0.009 off).
    expect(t.calibrated.shape_test!.median_a).toBeGreaterThan(1.0013);
    expect(t.calibrated.shape_test!.median_a).toBeLessThan(1.0029);
    expect(t.calibrated.shape_test!.median_b).toBeGreaterThan(1.032);
    expect(t.calibrated.shape_test!.median_b).toBeLessThan(1.051);
    expect(t.headline).toMatch(
      /^Differs in train\/token_mult_prob_error: grpo-capture-on median 1\.00\d+ vs grpo-capture-off median 1\.04\d+; two seeds of the same setup differ by about 0\.000\d+ \(medians/,
    );
    expect(t.headline).not.toMatch(/noise|no difference/i);
    expect(t.verdict).not.toMatch(/within run-to-run noise/i);
  });

  it("an explicit baseline wins; without one there is no floor and the verdict says why", async () => {
    const asked = await compareRuns(
      "grpo-capture-on",
      "grpo-capture-off",
      "grpo-capture-off-seed2",
    );
    expect(asked.baseline).toMatchObject({ chosen: "asked", against: { id: "grpo-capture-off" } });
    const none = await compareRuns("grpo-capture-on", "opencode-after-fix", null);
    expect(none.training).toBeNull();
    expect(none.notes.join(" ")).toMatch(/do not share at least 3 steps/);
  });

  it("a side that is the seed repeat of the other is its own floor", async () => {
    const c = await compareRuns("grpo-capture-off", "grpo-capture-off-seed2", null);
    expect(c.baseline).toMatchObject({
      chosen: "seed_repeat_of",
      run: { id: "grpo-capture-off-seed2" },
      against: { id: "grpo-capture-off" },
    });
    expect(c.training?.floor).not.toBeNull();
    // A pair cannot be its own yardstick: the calibrated verdict declines to decide.
    expect(c.training?.calibrated.decision).toBe("not_enough_evidence");
    expect(c.training?.within_noise).toBeNull();
    expect(c.training?.verdict).toMatch(
      /^Not enough evidence: the two runs are the seed-repeat pair itself/,
    );
  });

  it("rejects missing and unknown runs", async () => {
    await expect(compareRuns(null, "x", null)).rejects.toThrow(/needs two runs/);
    await expect(compareRuns("grpo-capture-on", "nope", null)).rejects.toThrow(/no run "nope"/);
  });
});

describe("opencode after versus before the fix (evaluation runs)", () => {
  it("reward jump paired by task, sign and permutation tests, calls per rollout, the 422s", async () => {
    const c = await compareRuns("opencode-after-fix", "opencode-before-fix", null);
    const e = c.evaluation!;
    expect(e.tasks).toBe(12);
    expect([e.mean_a, e.mean_b]).toEqual([expect.closeTo(11 / 12, 12), 0]);
    expect([e.diff.estimate, e.diff.low, e.diff.high]).toEqual([
      expect.closeTo(0.9166666666666666, 12),
      0.75,
      1,
    ]);
    expect(e.sign_test).toMatchObject({
      positive: 11,
      negative: 0,
      ties: 1,
      p: expect.closeTo(0.0009765625, 12),
    });
    expect(e.permutation).toMatchObject({ p: expect.closeTo(0.0009765625, 12), exact: true });
    expect(e.calls_a).toEqual([{ calls: 2, count: 12 }]);
    // Each before-fix rollout made 2 calls (status codes 200×12 and 422×12 below): one failed.
    expect(e.calls_b).toEqual([{ calls: 2, count: 12 }]);
    expect([e.mean_calls_a, e.mean_calls_b]).toEqual([2, 2]);
    expect(e.changed_most).toHaveLength(10); // the top 10 of 11 changed tasks
    expect(e.changed_most[0]).toMatchObject({
      task: 0,
      diff: 1,
      a_rollouts: ["0-0"],
      b_rollouts: ["0-0"],
    });
    expect(c.capture.b.status_codes).toEqual([
      { key: "200", count: 12 },
      { key: "422", count: 12 },
    ]);
    expect(c.capture.b.failed_calls).toBe(12);
    expect(c.capture.a.failed_calls).toBe(0);
  });

  it("runs of different agents are not paired by task index, and the note says why", async () => {
    // Fixture truth: the agents each run's rollouts.jsonl names, read here without the index.
    const agents = (run: string) => [
      ...new Set(
        readFileSync(path.join(RUNS_DIR, run, "rollouts.jsonl"), "utf8")
          .split("\n")
          .filter((l) => l.trim() !== "")
          .flatMap((l) => {
            try {
              const name = (JSON.parse(l) as { agent_ref?: { name?: unknown } }).agent_ref?.name;
              return typeof name === "string" ? [name] : [];
            } catch {
              return []; // the fixture's malformed record
            }
          }),
      ),
    ];
    const [x, y] = [agents("claude-code-capture-on"), agents("gym-main-v1")];
    expect(x.filter((n) => y.includes(n))).toEqual([]);
    const c = await compareRuns("claude-code-capture-on", "gym-main-v1", null);
    expect(c.evaluation).toBeNull();
    expect(c.notes).toContain(
      `No evaluation comparison: the runs' records name different agents (claude-code-capture-on: ${x.sort().join(", ")}; gym-main-v1: ${y.sort().join(", ")}), so a task index names a different task in each.`,
    );
  });
});

describe("degenerate training series", () => {
  it("a constant series has no correlation: null (not NaN) and no floor test", () => {
    const rows = (xs: number[]) => xs.map((reward, step) => ({ step, reward, scalars: {} }));
    const side = (id: string, xs: number[]) => ({
      id,
      metrics: rows(xs),
      summaries: [],
      health: computeHealth([]),
      unreadableRecords: 0,
    });
    const t = compareTraining(
      side("a", [0.5, 0.5, 0.5, 0.5]),
      side("b", [0.1, 0.4, 0.2, 0.3]),
      side("c", [0.2, 0.3, 0.1, 0.4]),
      side("d", [0.3, 0.1, 0.4, 0.2]),
    )!;
    expect(t.correlation).toBeNull();
    expect(t.floor_test).toBeNull();
    expect(trainingComparisonSchema.parse(JSON.parse(JSON.stringify(t))).correlation).toBeNull();
    expect(t.verdict).toMatch(/correlation undefined \(a constant series\)/);
    expect(t.calibrated.decision).toBe("not_enough_evidence");
    expect(t.verdict).toMatch(/^Not enough evidence: only 4 shared steps \(at least 20 needed\)/);
  });
});
