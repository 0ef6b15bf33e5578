// GET /api/runs/{run}/trainer/training over the committed fixture runs, through the real handler:
// the GRPO runs' TensorBoard logs carry NeMo-RL's mismatch metrics for every one of their 100 steps
// (fixtures/generator/tensorboard), charted at their tags; a run without trainer logs has none.
import { describe, expect, it } from "vitest";
import { trainingSectionSchema } from "@/lib/schema/api-training";
import { serveFixtureRuns, req, runCtx } from "@/lib/testing/fixture-runs";
import { GET } from "./route";

serveFixtureRuns();

describe("GET /api/runs/{run}/trainer/training", () => {
  it("charts the logged train/inference mismatch of grpo-capture-off, per step", async () => {
    const res = await GET(req(), runCtx("grpo-capture-off"));
    expect(res.status).toBe(200);
    const t = trainingSectionSchema.parse(await res.json());
    expect(t.trainer_logs).toBe("logs");
    expect(t.charts.map((c) => [c.id, c.tag, c.steps])).toEqual([
      ["mult-prob-error", "train/token_mult_prob_error", 100],
      ["gen-kl", "train/gen_kl_error", 100],
    ]);
    expect(t.loggers).toEqual([
      { path: "tensorboard", logger: "tensorboard", read: true, detail: "1 event file" },
    ]);
  });

  it("a run without trainer logs has an empty section; an unknown run is a 404", async () => {
    const t = trainingSectionSchema.parse(await (await GET(req(), runCtx("gym-main-v1"))).json());
    expect(t).toMatchObject({ trainer_logs: null, charts: [], facts: [], loggers: [] });
    expect((await GET(req(), runCtx("no-such-run"))).status).toBe(404);
  });
});
