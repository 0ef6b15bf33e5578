// GET /api/runs/{run}/trainer/truth over the committed fixture runs, through the real handler: the
// body parses with the strict contract, is never cached, and names the generator's planted samples
// (fixtures/generator/nemo-rl-steps PLANTED) with links to their rollouts' ids.
import { describe, expect, it } from "vitest";
import { PLANTED } from "@/fixtures/generator/nemo-rl-steps";
import { trainerTruthSchema } from "@/lib/schema/api-trainer";
import { serveFixtureRuns, req, runCtx } from "@/lib/testing/fixture-runs";
import { GET } from "./route";

serveFixtureRuns();

describe("GET /api/runs/{run}/trainer/truth", () => {
  it("names the planted mask and token differences of grpo-capture-on", async () => {
    const res = await GET(req(), runCtx("grpo-capture-on"));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const t = trainerTruthSchema.parse(await res.json());
    const at = ([step, idx]: readonly [number, number]) =>
      t.samples.find((s) => s.step === step && s.idx === idx);
    expect(at(PLANTED.maskDiffers)).toMatchObject({ class: "mask_differs" });
    expect(at(PLANTED.tokensDiffer)).toMatchObject({ class: "tokens_differ" });
    expect(at(PLANTED.tokensDiffer)!.rollout_id).toMatch(/^\d+-\d+$/);
    expect(t.totals.mask_differs + t.totals.tokens_differ).toBe(2);
    expect(t.totals.identical).toBe(t.totals.samples - 2);
  });

  it("a run without NeMo-RL logs answers an empty check; an unknown run is a 404", async () => {
    const t = trainerTruthSchema.parse(await (await GET(req(), runCtx("gym-main-v1"))).json());
    expect(t).toMatchObject({ log_dir: null, steps: [], samples: [], samples_total: 0 });
    expect((await GET(req(), runCtx("no-such-run"))).status).toBe(404);
  });
});
