// GET /api/runs/{run}/rollouts/{rollout}/trainer-mismatch over the committed GRPO fixtures. Expected
// values are the generator's record of what it wrote (regenerated into a temp root; the fixtures test
// keeps the committed files byte-equal to a regeneration), never the route's own computation.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import type { PlantedSample } from "@/fixtures/generator/nemo-rl-steps";
import { plantedSamples } from "@/lib/testing/planted-samples";
import { apiErrorSchema } from "@/lib/schema/api";
import { rolloutMismatchSchema } from "@/lib/schema/api-trainer";
import { tokenWindowSchema } from "@/lib/schema/api-tokens";
import { req, serveFixtureRuns } from "@/lib/testing/fixture-runs";
import { GET as getTokens } from "../tokens/route";
import { GET } from "./route";

serveFixtureRuns();
const ON = "grpo-capture-on";
let planted: PlantedSample[] = [];
beforeAll(async () => void (planted = await plantedSamples(ON)), 60_000);

const ctx = (run: string, rollout: string) =>
  ({ params: Promise.resolve({ run, rollout }) }) as never;

async function mismatch(rollout: string, qs = "chain=main", run = ON) {
  const res = await GET(req(`/x?${qs}`), ctx(run, rollout));
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return rolloutMismatchSchema.parse(await res.json());
}

const byClass = (cls: PlantedSample["cls"]) => planted.find((p) => p.cls === cls)!;

describe("GET …/rollouts/{rollout}/trainer-mismatch", () => {
  it("an identical sample: exp(|gen − prev|) at every masked position, null elsewhere", async () => {
    const p = byClass("identical");
    const m = await mismatch(p.rolloutId);
    expect(m).toMatchObject({ available: true, reason: null, offset: 0 });
    expect(m.sample).toMatchObject({ step: p.step, idx: p.idx, class: "identical" });
    expect(m.total).toBe(p.tokenErrors.length);
    expect(m.errors).toHaveLength(p.tokenErrors.length);
    m.errors.forEach((e, t) => {
      const want = p.tokenErrors[t]!;
      if (want === null) expect(e, `position ${t}`).toBeNull();
      else expect(e, `position ${t}`).toBeCloseTo(want, 12);
    });
    expect(m.sample!.mult_prob_error).toBeCloseTo(p.multProbError, 12);
  });

  it("lines up with the token view's main chain: the step file's tokens are the chain's", async () => {
    const p = byClass("identical");
    const m = await mismatch(p.rolloutId);
    const res = await getTokens(
      req(`/x?chain=main&offset=0&limit=${m.total}`),
      ctx(ON, p.rolloutId),
    );
    const ids = tokenWindowSchema.parse(await res.json()).tokens.id;
    const line = readFileSync(
      path.join(RUNS_DIR, ON, "logs", `train_data_step${p.step}.jsonl`),
      "utf8",
    ).split("\n")[p.idx]!;
    const file = JSON.parse(line) as { token_ids: number[][]; input_lengths: number[] };
    expect(ids).toEqual(file.token_ids[0]!.slice(0, file.input_lengths[0]));
  });

  it("pages by offset and limit", async () => {
    const p = byClass("identical");
    const m = await mismatch(p.rolloutId, "chain=main&offset=5&limit=7");
    expect(m.offset).toBe(5);
    expect(m.errors).toEqual(
      p.tokenErrors.slice(5, 12).map((v) => (v === null ? null : expect.closeTo(v, 12))),
    );
    const past = await mismatch(p.rolloutId, `chain=main&offset=${m.total + 3}&limit=5`);
    expect(past.errors).toEqual([]);
  });

  it("mask differs: the interstitial the trainer also trained on is coloured", async () => {
    const p = byClass("mask_differs");
    const m = await mismatch(p.rolloutId);
    expect(m.sample!.class).toBe("mask_differs");
    for (let t = p.firstDiff!; t < p.firstDiff! + p.maskDiffs; t++)
      expect(m.errors[t], `position ${t}`).toBeCloseTo(p.tokenErrors[t]!, 12);
  });

  it("tokens differ: only the positions before the first differing token are the chain's", async () => {
    const p = byClass("tokens_differ");
    const m = await mismatch(p.rolloutId);
    expect(m.sample!.class).toBe("tokens_differ");
    expect(m.total).toBe(p.firstDiff);
    expect(m.errors).toHaveLength(p.firstDiff!);
  });

  it("says which joined sample differs from the capture, whatever chain is asked (the verdict's evidence)", async () => {
    for (const cls of ["tokens_differ", "mask_differs"] as const) {
      const p = byClass(cls);
      const want = {
        step: p.step,
        record_step: p.step - 1, // NeMo-RL's step N trains the records of step N − 1
        line: p.idx + 1,
        class: cls,
        first_diff: p.firstDiff,
        mask_diffs: p.maskDiffs,
        left_out: false, // the planted samples keep their sample mask
      };
      expect((await mismatch(p.rolloutId)).differs, cls).toEqual(want);
      expect((await mismatch(p.rolloutId, "chain=side-1")).differs, cls).toEqual(want);
    }
    expect((await mismatch(byClass("identical").rolloutId)).differs).toBeNull();
    expect((await mismatch("0-0", "chain=main", "gym-main-v1")).differs).toBeNull();
  });

  it("another chain, another profile or a run without step logs: unavailable, with a reason", async () => {
    const id = byClass("identical").rolloutId;
    const other = await mismatch(id, "chain=side-1");
    expect(other).toMatchObject({
      step_logs: true,
      available: false,
      sample: null,
      errors: [],
      total: 0,
    });
    expect(other.reason).toMatch(/main chain only/);
    expect((await mismatch(id, "chain=main&profile=gym-v1")).reason).toMatch(/own profile/);
    const plain = await mismatch("0-0", "chain=main", "gym-main-v1");
    expect(plain.reason).toMatch(/no NeMo-RL step logs/);
    // gym-main-v1 has no step files: the inspector says nothing about the truth check there.
    expect(plain.step_logs).toBe(false);
  });

  it("a misspelt or bad parameter is a 400; an unknown run a 404", async () => {
    const id = byClass("identical").rolloutId;
    for (const qs of ["chain=main&ofset=3", "offset=-1", "limit=100000", "limit=x"]) {
      const res = await GET(req(`/x?${qs}`), ctx(ON, id));
      expect(res.status, qs).toBe(400);
      apiErrorSchema.parse(await res.json());
    }
    expect((await GET(req("/x"), ctx(ON, "..bad"))).status).toBe(400);
    expect((await GET(req("/x"), ctx("no-such-run", id))).status).toBe(404);
  });
});
