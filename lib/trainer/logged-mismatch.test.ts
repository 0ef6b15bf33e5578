// The recomputed token_mult_prob_error against the logged scalar. On the committed GRPO fixtures the
// expected values are the generator's own record (fixtures/generator/nemo-rl-steps, regenerated
// into a temp root; the fixtures test holds the committed files byte-equal to a regeneration).
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { writeGrpoRuns } from "@/fixtures/generator/grpo";
import { writeNemoRlSteps, type NemoRlStepsRecord } from "@/fixtures/generator/nemo-rl-steps";
import { getRun } from "@/lib/runs/root";
import { readEventFile } from "./event-scalars";
import { compareLogged, LOGGED_TAG, sameWithin } from "./logged-mismatch";
import { sampleMismatch, stepMismatch } from "./mismatch";
import { SeriesCollector, pointOf } from "./scalar-series";
import { listStepFiles, readStepFile } from "./step-data";
import { trainerTruth } from "./truth-check";

const RUNS = ["grpo-capture-on", "grpo-capture-off"] as const;

let record: NemoRlStepsRecord;
beforeAll(async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-logged-"));
  await writeGrpoRuns(root);
  record = await writeNemoRlSteps(root);
}, 60_000);

/** step → value of the logged scalar in the run's one committed event file. */
function loggedValues(run: string): Map<number, number | null> {
  const dir = path.join(RUNS_DIR, run, "logs", "tensorboard");
  const [file, ...more] = readdirSync(dir);
  expect(more).toEqual([]);
  const c = new SeriesCollector();
  readEventFile(readFileSync(path.join(dir, file!)), file!, c);
  const points = c.series().find((s) => s.tag === LOGGED_TAG)!.points;
  return new Map(points.map((p) => [p.step, p.value]));
}

const relDiff = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));

describe("the GRPO fixtures: TensorBoard's token_mult_prob_error is the step files' own", () => {
  it.each(RUNS)(
    "%s: the generator's record, the event file and the step files agree",
    async (run) => {
      const planted = record.stepMismatch[run]!;
      expect([...planted.keys()]).toEqual([1, 2, 3]);
      const logged = loggedValues(run);
      const files = (await listStepFiles(path.join(RUNS_DIR, run, "logs"))).filter(
        (f) => f.kind === "train",
      );
      expect(files.map((f) => f.step)).toEqual([...planted.keys()]);
      for (const f of files) {
        const read = await readStepFile(f);
        expect(read.issues).toEqual([]);
        const computed = stepMismatch(read.samples.map(sampleMismatch))!;
        const want = planted.get(f.step)!;
        expect(relDiff(computed, want), `step file ${f.step}`).toBeLessThan(1e-12);
        // NeMo-RL logs the step's value at total_steps + 1 = N; stored as float32.
        expect(relDiff(logged.get(f.step)!, want), `logged step ${f.step}`).toBeLessThan(1e-6);
      }
    },
  );

  it.each(RUNS)(
    "%s: the truth check reports every step file equal to the logged value",
    async (run) => {
      const t = await trainerTruth(await getRun(run, RUNS_DIR));
      const planted = record.stepMismatch[run]!;
      expect(t.logged).toEqual({
        tag: LOGGED_TAG,
        trainer_logs: "logs",
        relative_tolerance: 1e-6,
        equal: planted.size,
        differs: 0,
        not_logged: 0,
        not_computed: 0,
        only_logged: loggedValues(run).size - planted.size,
      });
      for (const s of t.steps) {
        expect(s.logged_check).toBe("equal");
        expect(relDiff(s.logged_token_mult_prob_error!, planted.get(s.step)!)).toBeLessThan(1e-6);
      }
    },
  );

  it("a run without a logged scalar has no comparison", async () => {
    const t = await trainerTruth(await getRun("gym-main-v1", RUNS_DIR));
    expect(t.logged).toBeNull();
  });
});

describe("compareLogged", () => {
  const series = (pts: Array<[number, number]>) => ({
    tag: LOGGED_TAG,
    sources: ["events.out.tfevents.1"],
    points: pts.map(([step, v]) => pointOf(step, 0, v)),
  });

  it("equal within a relative 1e-6, differs beyond it, names each missing side", () => {
    const c = compareLogged(
      [
        { step: 1, token_mult_prob_error: 1.002 },
        { step: 2, token_mult_prob_error: 1.002 },
        { step: 3, token_mult_prob_error: 1.5 },
        { step: 4, token_mult_prob_error: null },
        { step: 5, token_mult_prob_error: 1.1 },
      ],
      series([
        [1, 1.002 * (1 + 5e-7)],
        [2, 1.002 * (1 + 5e-6)],
        [3, NaN],
        [4, 1.2],
        [9, 1.3],
        [10, 1.3],
      ]),
    );
    expect(c.steps.map((s) => s.check)).toEqual([
      "equal",
      "differs",
      "differs",
      "not_computed",
      "not_logged",
    ]);
    expect(c).toMatchObject({ equal: 1, differs: 2, not_logged: 1, not_computed: 1 });
    expect(c.only_logged).toBe(2);
  });

  it("no series: every step is not logged", () => {
    const c = compareLogged([{ step: 1, token_mult_prob_error: 1 }], undefined);
    expect(c).toMatchObject({ equal: 0, not_logged: 1, only_logged: 0 });
  });

  it("sameWithin is symmetric and relative", () => {
    expect(sameWithin(1000, 1000.0009)).toBe(true);
    expect(sameWithin(1000.0011, 1000)).toBe(false);
  });
});
