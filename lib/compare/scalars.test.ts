// The compare page on any scalar both runs log. Expected series are read straight from the fixture
// event files with lib/trainer's reader, not through compareRuns; the GRPO runs keep no metrics.jsonl.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { InvalidInputError } from "@/lib/errors";
import { comparisonSchema } from "@/lib/schema";
import { readEventFile } from "@/lib/trainer/event-scalars";
import { SeriesCollector } from "@/lib/trainer/scalar-series";
import { compareRuns } from "./load";

const prev = process.env.ROLLOUT_LENS_RUNS;
beforeAll(() => void (process.env.ROLLOUT_LENS_RUNS = RUNS_DIR));
afterAll(() => {
  if (prev === undefined) delete process.env.ROLLOUT_LENS_RUNS;
  else process.env.ROLLOUT_LENS_RUNS = prev;
});

/** step → value of `tag` in the run's one TensorBoard event file. */
function eventValues(run: string, tag: string): Map<number, number> {
  const dir = path.join(RUNS_DIR, run, "logs", "tensorboard");
  const [file, ...more] = readdirSync(dir);
  expect(more).toEqual([]);
  const c = new SeriesCollector();
  readEventFile(readFileSync(path.join(dir, file!)), file!, c);
  const points = c.series().find((s) => s.tag === tag)?.points ?? [];
  const values = new Map<number, number>();
  for (const p of points) if (p.value !== null) values.set(p.step, p.value);
  return values;
}

const ON = "grpo-capture-on",
  OFF = "grpo-capture-off";

describe("compare on a scalar both runs log", () => {
  it("lists the trainer's scalars and defaults to train/reward, the event files' values", async () => {
    const c = comparisonSchema.parse(await compareRuns(ON, OFF, null));
    expect(c.scalars).toEqual(
      expect.arrayContaining(["train/reward", "train/token_mult_prob_error", "train/gen_kl_error"]),
    );
    // Only the trainer's tags: no metrics.jsonl, so no `reward` column beside them.
    expect(c.scalars).toEqual([
      "train/gen_kl_error",
      "train/reward",
      "train/token_mult_prob_error",
    ]);
    for (const run of [ON, OFF])
      expect(existsSync(path.join(RUNS_DIR, run, "metrics.jsonl"))).toBe(false);
    expect(c.scalar).toBe("train/reward");
    const [on, off] = [eventValues(ON, "train/reward"), eventValues(OFF, "train/reward")];
    const t = c.training!;
    expect(t.steps).toBe(100);
    expect(t.series.map((p) => [p.step, p.a, p.b])).toEqual(
      [...on.keys()].map((step) => [step, on.get(step), off.get(step)]),
    );
    expect(t.calibrated.decision).toBe("within_noise");
    // What e2e/compare.spec.ts reads on the page (3 decimals; reference.py's numbers on the event
    // files' float32 train/reward).
    const f = (x: number) => x.toFixed(3);
    expect([t.mean_a, t.diff].map((i) => [i.estimate, i.low, i.high].map(f))).toEqual([
      ["0.552", "0.543", "0.562"],
      ["0.006", "-0.007", "0.019"],
    ]);
    expect([t.correlation, t.floor?.correlation].map((x) => f(x!))).toEqual(["0.943", "0.952"]);
  });

  it("scalar=train/gen_kl_error: the per-step series are that tag's, the floor too", async () => {
    const c = await compareRuns(ON, OFF, null, "train/gen_kl_error");
    expect(c.scalar).toBe("train/gen_kl_error");
    const [on, off] = [ON, OFF].map((r) => eventValues(r, "train/gen_kl_error"));
    expect(on!.size).toBe(100);
    const t = c.training!;
    expect(t.series.map((p) => p.step)).toEqual([...on!.keys()]);
    for (const p of t.series) {
      expect(p.a).toBe(on!.get(p.step));
      expect(p.b).toBe(off!.get(p.step));
      expect(p.diff).toBeCloseTo(on!.get(p.step)! - off!.get(p.step)!, 12);
    }
    const mean = (m: Map<number, number>) => [...m.values()].reduce((s, x) => s + x, 0) / m.size;
    expect(t.mean_a.estimate).toBeCloseTo(mean(on!), 12);
    expect(t.floor).toMatchObject({ run: "grpo-capture-off-seed2", against: OFF, steps: 100 });
    // Capture off re-tokenizes: its generation KL error is well above capture on's (fixtures).
    expect(t.mean_b.estimate).toBeGreaterThan(t.mean_a.estimate);
    expect(c.notes.join(" ")).not.toMatch(/No training comparison/);
  });

  it("an unknown scalar is invalid input naming the ones both runs share", async () => {
    const err = await compareRuns(ON, OFF, null, "train/nope").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidInputError);
    expect(String(err)).toMatch(/scalar "train\/nope" is not logged by both runs/);
    expect(String(err)).toMatch(/"train\/gen_kl_error"/);
  });
});
