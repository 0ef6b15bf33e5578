// GET /api/compare through the real handler: bodies parse with the contract's schemas (strict, so a
// renamed or extra field fails), errors are {error} with 400 or 404.
import { serveFixtureRuns } from "@/lib/testing/fixture-runs";
import { describe, expect, it } from "vitest";
import { apiErrorSchema, comparisonSchema } from "@/lib/schema";
import { GET } from "./route";

serveFixtureRuns();

const get = (query: string) => GET(new Request(`http://localhost/api/compare?${query}`));

describe("GET /api/compare", () => {
  it("training runs: the body is the contract, with the seed repeat as the floor", async () => {
    const res = await get("a=grpo-capture-on&b=grpo-capture-off");
    expect(res.status).toBe(200);
    const c = comparisonSchema.parse(await res.json());
    expect(c.baseline).toMatchObject({
      run: { id: "grpo-capture-off-seed2" },
      chosen: "seed_repeat_of",
    });
    expect(c.training?.steps).toBe(100);
    expect(c.training?.calibrated).toMatchObject({
      decision: "within_noise",
      seed_pair: { run: "grpo-capture-off-seed2", against: "grpo-capture-off" },
      correlation_test: { method: "steiger", shared: "grpo-capture-off" },
    });
    expect(c.runs.map((r) => r.id)).toContain("gym-main-v1");
  });

  it("evaluation runs: per-task pairs and capture sides parse too", async () => {
    const c = comparisonSchema.parse(
      await (await get("a=opencode-before-fix&b=opencode-after-fix")).json(),
    );
    expect(c.training).toBeNull();
    expect(c.evaluation?.tasks).toBeGreaterThan(0);
    expect(c.capture.a.cut_short).toBe(12); // every rollout of the 422 run (fixtures/README: seed 000)
  });

  it("answers 400 without two runs and 404 for an unknown run", async () => {
    const missing = await get("a=grpo-capture-on");
    expect(missing.status).toBe(400);
    expect(apiErrorSchema.parse(await missing.json()).error).toMatch(/compare needs two runs/);
    const unknown = await get("a=grpo-capture-on&b=nope");
    expect(unknown.status).toBe(404);
    apiErrorSchema.parse(await unknown.json());
  });

  it("compares the scalar asked for, and answers 400 with the allowed ones for any other", async () => {
    const kl = comparisonSchema.parse(
      await (await get("a=grpo-capture-on&b=grpo-capture-off&scalar=train/gen_kl_error")).json(),
    );
    expect(kl.scalar).toBe("train/gen_kl_error");
    // token_mult_prob_error: capture off's planted re-tokenization drift (fixtures/generate.ts) is
    // a difference, never "within noise", whatever its spikes do to the mean.
    const mult = comparisonSchema.parse(
      await (
        await get("a=grpo-capture-on&b=grpo-capture-off&scalar=train/token_mult_prob_error")
      ).json(),
    );
    expect(mult.training?.calibrated.decision).toBe("differs");
    expect(mult.training?.headline).toMatch(/^Differs in train\/token_mult_prob_error: /);
    expect(kl.scalars).toContain("train/reward");
    const bad = await get("a=grpo-capture-on&b=grpo-capture-off&scalar=train%2Fnope");
    expect(bad.status).toBe(400);
    const { error } = apiErrorSchema.parse(await bad.json());
    expect(error).toMatch(
      /scalar "train\/nope" is not logged by both runs; they share: .*"train\/reward"/,
    );
  });

  it("a=r1,r2 parses: a side of several seeds, with its runs and each side's band", async () => {
    const res = await get("a=grpo-seeds-on-1,grpo-seeds-on-2&b=grpo-seeds-off-1");
    expect(res.status).toBe(200);
    const c = comparisonSchema.parse(await res.json());
    expect(c.sides.a).toMatchObject({ from: "list", seed_group: null });
    expect(c.sides.a.runs.map((r) => [r.id, r.name])).toEqual([
      ["grpo-seeds-on-1", "GRPO, token capture on, seed 1 of 3"],
      ["grpo-seeds-on-2", "GRPO, token capture on, seed 2 of 3"],
    ]);
    // b names one run of a seed group: the whole group, and the body says so.
    expect(c.sides.b).toMatchObject({ from: "seed_group", seed_group: "grpo-seeds-off" });
    expect(c.sides.b.runs.map((r) => r.id)).toEqual(["grpo-seeds-off-1", "grpo-seeds-off-2"]);
    expect(c.training?.calibrated.yardstick).toBe("seeds");
    expect(c.training?.band?.a).toHaveLength(c.training!.steps);
  });

  it("an unknown id in a list is a 404 naming it", async () => {
    const res = await get("a=grpo-seeds-on-1,grpo-seeds-nope&b=grpo-seeds-off-1");
    expect(res.status).toBe(404);
    expect(apiErrorSchema.parse(await res.json()).error).toMatch(/no run "grpo-seeds-nope"/);
  });

  it("a group of one (a list of one run) is exactly today's comparison", async () => {
    const one = comparisonSchema.parse(
      await (await get("a=grpo-capture-on,&b=grpo-capture-off,grpo-capture-off")).json(),
    );
    const plain = comparisonSchema.parse(
      await (await get("a=grpo-capture-on&b=grpo-capture-off")).json(),
    );
    expect(one.sides.a).toMatchObject({ from: "run", label: "grpo-capture-on" });
    expect(one.sides.b.runs.map((r) => r.id)).toEqual(["grpo-capture-off"]);
    expect(one.training).toEqual(plain.training);
    expect(one.training?.band).toBeNull();
    expect(one.baseline).toEqual(plain.baseline);
  });
});
