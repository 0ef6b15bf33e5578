import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { TOKEN_CAPTURE_TAGS } from "@/fixtures/generator/tensorboard";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { grpoRewardCurves } from "@/fixtures/generator/grpo";
import { eventFileBytes } from "@/lib/testing/event-writer";
import type { MetricsRow } from "@/lib/runs/metrics";
import { getRun } from "@/lib/runs/root";
import {
  chooseScalar,
  MAX_TAGS,
  readRunScalars,
  scalarAsMetricsRows,
  sharedScalars,
  type RunScalars,
} from "./run-scalars";

const FIXTURES = path.join(process.cwd(), "fixtures", "runs");

/** The fixture truth: the generator's reward curve per run (the event files store it as float32). */
const CURVES: Record<string, number[]> = (() => {
  const c = grpoRewardCurves();
  return { "grpo-capture-on": c.on, "grpo-capture-off": c.off, "grpo-capture-off-seed2": c.off2 };
})();

describe("the GRPO sample runs' TensorBoard logs", () => {
  it.each(["grpo-capture-on", "grpo-capture-off", "grpo-capture-off-seed2"])(
    "%s: found in logs/ without run.json naming it; train/reward is the generator's curve (float32)",
    async (id) => {
      const s = await readRunScalars(await getRun(id, FIXTURES));
      expect(s.trainer_logs).toBe("logs");
      expect(s.notes).toEqual([]);
      const tags = s.series.map((x) => x.tag);
      // The trainer's tags alone: the GRPO runs keep no metrics.jsonl.
      expect(existsSync(path.join(FIXTURES, id, "metrics.jsonl"))).toBe(false);
      // A capturing trainer also logs the capture's own counters (fixtures/generator/tensorboard).
      const capture = id === "grpo-capture-on" ? [...TOKEN_CAPTURE_TAGS].sort() : [];
      expect(tags).toEqual([
        ...capture,
        "train/gen_kl_error",
        "train/reward",
        "train/token_mult_prob_error",
      ]);
      const reward = s.series.find((x) => x.tag === "train/reward")!;
      expect(reward.sources).toEqual([
        expect.stringMatching(/^tensorboard\/events\.out\.tfevents\.1788000000\.nemo-rl-node-0\./),
      ]);
      const expected = CURVES[id]!;
      expect(reward.points.map((p) => p.step)).toEqual(expected.map((_, i) => i));
      for (const p of reward.points) expect(p.value).toBe(Math.fround(expected[p.step]!));
    },
  );

  it("capture off shows a higher train/inference mismatch than capture on", async () => {
    const mean = async (id: string) => {
      const s = await readRunScalars(await getRun(id, FIXTURES));
      const pts = s.series.find((x) => x.tag === "train/token_mult_prob_error")!.points;
      return pts.reduce((n, p) => n + p.value!, 0) / pts.length;
    };
    expect(await mean("grpo-capture-on")).toBeLessThan(1.01);
    expect(await mean("grpo-capture-off")).toBeGreaterThan(1.02);
  });
});

describe("paths.trainer_logs", () => {
  function runsRoot(): string {
    const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-trainer-"));
    const named = path.join(root, "named");
    mkdirSync(path.join(named, "nemo", "mlruns", "0", "abc", "metrics", "train"), {
      recursive: true,
    });
    writeFileSync(
      path.join(named, "nemo", "mlruns", "0", "abc", "metrics", "train", "reward"),
      "1000 0.5 0\n2000 0.75 1\n",
    );
    writeFileSync(
      path.join(named, "run.json"),
      JSON.stringify({ paths: { trainer_logs: "nemo" } }),
    );
    const outside = path.join(root, "outside");
    mkdirSync(outside);
    writeFileSync(path.join(outside, "run.json"), JSON.stringify({ paths: { trainer_logs: "/" } }));
    const plain = path.join(root, "plain", "logs", "tensorboard");
    mkdirSync(plain, { recursive: true });
    writeFileSync(
      path.join(plain, "events.out.tfevents.1.h"),
      eventFileBytes(0, [{ tag: "loss", step: 4, wall_time: 9, value: 2 }]),
    );
    mkdirSync(path.join(root, "none"));
    // A NeMo-RL log directory: the experiment directory itself holds tensorboard/.
    const exp = path.join(root, "nemo-rl", "exp_001", "tensorboard");
    mkdirSync(exp, { recursive: true });
    writeFileSync(
      path.join(exp, "events.out.tfevents.2.h"),
      eventFileBytes(0, [{ tag: "train/reward", step: 1, wall_time: 3, value: 0.25 }]),
    );
    return root;
  }
  const root = runsRoot();

  it("reads MLflow metrics from the directory run.json names", async () => {
    const s = await readRunScalars(await getRun("named", root));
    expect(s.trainer_logs).toBe("nemo");
    expect(s.series).toEqual([
      {
        tag: "train/reward",
        sources: [path.join("mlruns", "0", "abc", "metrics", "train", "reward")],
        points: [
          { step: 0, wall_time: 1, value: 0.5 },
          { step: 1, wall_time: 2, value: 0.75 },
        ],
      },
    ]);
  });
  it("refuses a directory outside the runs root, with a note", async () => {
    const s = await readRunScalars(await getRun("outside", root));
    expect(s.trainer_logs).toBeNull();
    expect(s.series).toEqual([]);
    expect(s.notes).toEqual([
      expect.stringMatching(/^run\.json paths\.trainer_logs: \/: outside the runs root/),
    ]);
  });
  it("finds logs/tensorboard by itself; a run without logs has none", async () => {
    const plain = await readRunScalars(await getRun("plain", root));
    expect(plain.series).toEqual([
      {
        tag: "loss",
        sources: [path.join("tensorboard", "events.out.tfevents.1.h")],
        points: [{ step: 4, wall_time: 9, value: 2 }],
      },
    ]);
    const none = await readRunScalars(await getRun("none", root));
    expect(none).toEqual({ run: "none", series: [], trainer_logs: null, notes: [] });
  });
  it("reads a NeMo-RL experiment's own tensorboard/, its directory being the log directory", async () => {
    const s = await readRunScalars(await getRun("nemo-rl.exp_001", root));
    expect(s.trainer_logs).toBe(".");
    expect(s.series.map((x) => [x.tag, x.points])).toEqual([
      ["train/reward", [{ step: 1, wall_time: 3, value: 0.25 }]],
    ]);
  });
});

describe("choosing and feeding a scalar", () => {
  const run = (tags: string[]): RunScalars => ({
    run: "r",
    trainer_logs: null,
    notes: [],
    series: tags.map((tag) => ({
      tag,
      sources: [],
      points: [{ step: 1, wall_time: 0, value: 1 }],
    })),
  });
  it("compares the tags both runs have, train/reward first by default", () => {
    const shared = sharedScalars(
      run(["train/reward", "reward", "a", "kl"]),
      run(["kl", "reward", "train/reward"]),
    );
    expect(shared).toEqual(["kl", "reward", "train/reward"]);
    expect(chooseScalar(shared, null)).toBe("train/reward");
    expect(chooseScalar(shared, "kl")).toBe("kl");
    expect(chooseScalar(shared, "a")).toBe("train/reward");
    expect(chooseScalar(["kl", "reward"], null)).toBe("reward");
    expect(chooseScalar(["kl"], null)).toBe("kl");
    expect(chooseScalar([], null)).toBeNull();
  });
  it("feeds the chosen series as reward, keeping metrics.jsonl's other scalars", () => {
    const s: RunScalars = {
      ...run([]),
      series: [
        {
          tag: "t",
          sources: [],
          points: [
            { step: 1, wall_time: 0, value: 0.25 },
            { step: 3, wall_time: 0, value: 0.5 },
          ],
        },
      ],
    };
    const base: MetricsRow[] = [
      { step: 1, reward: 0.9, scalars: { "token_capture/invalid_rows": 2 } },
      { step: 2, reward: 0.8, scalars: {} },
    ];
    expect(scalarAsMetricsRows(s, "t", base)).toEqual([
      { step: 1, reward: 0.25, scalars: { "token_capture/invalid_rows": 2 } },
      { step: 2, reward: null, scalars: {} },
      { step: 3, reward: 0.5, scalars: {} },
    ]);
  });
});

describe("a trainer that logs thousands of tags", () => {
  it("is read in part: at most MAX_TAGS series, the mismatch and capture tags kept, the rest counted", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "rl-many-tags-"));
    mkdirSync(path.join(root, "r"));
    writeFileSync(path.join(root, "r", "rollouts.jsonl"), "");
    const keys = Array.from({ length: 1000 }, (_, i) => `a/tag_${String(i).padStart(4, "0")}`);
    const special = ["train/token_mult_prob_error", "token_capture/masked_fraction"];
    const rows = [0, 1, 2].map((step) =>
      JSON.stringify({ step, ...Object.fromEntries([...keys, ...special].map((k) => [k, step])) }),
    );
    writeFileSync(path.join(root, "r", "metrics.jsonl"), rows.join("\n") + "\n");
    const s = await readRunScalars(await getRun("r", root));
    const total = keys.length + special.length;
    expect(s.series).toHaveLength(MAX_TAGS);
    for (const tag of special) expect(s.series.map((x) => x.tag)).toContain(tag);
    expect(s.notes).toContain(
      `${total - MAX_TAGS} of ${total} scalar tags not shown (at most ${MAX_TAGS} a run; the reward, mismatch and token_capture/* tags always are)`,
    );
    const tags = s.series.map((x) => x.tag);
    expect(tags).toEqual([...tags].sort());
  });
});
