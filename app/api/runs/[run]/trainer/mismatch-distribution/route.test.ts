// GET /api/runs/{run}/trainer/mismatch-distribution over the committed GRPO fixtures. The expected
// quantiles and bins are computed here from the generator's record of each sample's mismatch
// (regenerated into a temp root; the fixtures test keeps the committed files byte-equal to it).
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeGrpoRuns } from "@/fixtures/generator/grpo";
import { writeNemoRlSteps, type PlantedSample } from "@/fixtures/generator/nemo-rl-steps";
import { mismatchDistributionSchema } from "@/lib/schema/api-trainer";
import { req, runCtx, serveFixtureRuns } from "@/lib/testing/fixture-runs";
import { GET } from "./route";

serveFixtureRuns();
let planted: PlantedSample[] = [];
beforeAll(async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-distribution-"));
  await writeGrpoRuns(root);
  planted = (await writeNemoRlSteps(root)).planted;
}, 60_000);

async function distribution(run: string) {
  const res = await GET(req(), runCtx(run));
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return mismatchDistributionSchema.parse(await res.json());
}

/** Type-7 quantile, written here from its definition. */
function q7(sorted: number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const i = Math.floor(h);
  return sorted[i]! + (h - i) * (sorted[Math.min(i + 1, sorted.length - 1)]! - sorted[i]!);
}

describe("GET /api/runs/{run}/trainer/mismatch-distribution", () => {
  it.each(["grpo-capture-on", "grpo-capture-off"])(
    "%s: quantiles, bins and the run's value are the generator's",
    async (run) => {
      const mine = planted.filter((p) => p.run === run);
      const values = mine.map((p) => p.multProbError).sort((a, b) => a - b);
      const tokens = mine.flatMap((p) => p.tokenErrors.filter((e): e is number => e !== null));
      const d = await distribution(run);
      expect(d).toMatchObject({
        log_dir: "logs",
        step_files: 3,
        samples: mine.length,
        samples_without_masked_tokens: 0,
        issues: [],
      });
      expect(d.token_mult_prob_error!).toBeCloseTo(
        tokens.reduce((a, b) => a + b, 0) / tokens.length,
        10,
      );
      for (const [k, p] of [
        ["p10", 0.1],
        ["p50", 0.5],
        ["p90", 0.9],
        ["p99", 0.99],
      ] as const)
        expect(d.quantiles[k]!, k).toBeCloseTo(q7(values, p), 10);
      expect(d.quantiles.max!).toBeCloseTo(values.at(-1)!, 10);
      expect(d.bins.reduce((a, b) => a + b.count, 0)).toBe(mine.length);
      for (const b of d.bins) {
        const inBin = values.filter((v) => v >= b.from && (b.to === null || v < b.to)).length;
        expect(b.count, `bin from ${b.from}`).toBe(inBin);
      }
    },
  );

  it("capture off: the drifted samples sit far above every capture-on sample", async () => {
    const [on, off] = [
      await distribution("grpo-capture-on"),
      await distribution("grpo-capture-off"),
    ];
    const drifted = planted.filter((p) => p.run === "grpo-capture-off" && p.drifted.length > 0);
    expect(drifted.length).toBeGreaterThan(0);
    const onMax = on.quantiles.max!;
    for (const p of drifted) expect(p.multProbError).toBeGreaterThan(onMax);
    expect(off.quantiles.max!).toBeGreaterThan(onMax);
  });

  it("a run without step logs has an empty distribution; an unknown run is a 404", async () => {
    const d = await distribution("gym-main-v1");
    expect(d).toMatchObject({
      log_dir: null,
      step_files: 0,
      samples: 0,
      token_mult_prob_error: null,
    });
    expect(d.quantiles.p50).toBeNull();
    expect((await GET(req(), runCtx("no-such-run"))).status).toBe(404);
  });
});
