// The experts route over the moe-routes sample run equals what its generator planted (MOE_TRUTH):
// every position's route from the call that added it, null where it fell back or is missing.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { MOE_RUN, MOE_TRUTH, writeMoeRoutes } from "@/fixtures/generator/moe-routes";
import { RUNS_DIR } from "@/fixtures/generate";
import { readRolloutCapture } from "@/lib/store";
import { expertsWindowSchema } from "@/lib/schema/api-experts";
import { apiErrorSchema } from "@/lib/schema/api";
import { req, serveFixtureRuns } from "@/lib/testing/fixture-runs";
import { GET } from "./route";

serveFixtureRuns();
beforeAll(async () => {
  // The truth is what the generator plants; writing a copy elsewhere fills it.
  await writeMoeRoutes(mkdtempSync(path.join(os.tmpdir(), "moe-truth-")));
});

const ctx = (rollout: string) => ({ params: Promise.resolve({ run: MOE_RUN, rollout }) }) as never;

async function experts(rollout: string, query: string) {
  const res = await GET(req(`/x?${query}`), ctx(rollout));
  expect(res.status).toBe(200);
  return expertsWindowSchema.parse(await res.json());
}

describe("GET …/experts", () => {
  it.each(["0-0", "1-0", "2-0", "3-0", "4-0", "5-0"])("answers %s's planted routes", async (id) => {
    const truth = MOE_TRUTH.rollouts[id];
    if (!truth) throw new Error(`no truth for ${id}`);
    const w = await experts(id, "chain=main&offset=0&limit=2000");
    expect(w.total).toBe(truth.positions.length);
    expect(w.experts).toEqual(truth.positions);
    expect(w.routed).toBe(id !== "5-0");
    expect(w.call.length).toBe(w.total);
  });

  it("serves a window: offset and limit as the tokens route takes them", async () => {
    const truth = MOE_TRUTH.rollouts["0-0"];
    const w = await experts("0-0", "offset=140&limit=7");
    expect(w.offset).toBe(140);
    expect(w.experts).toEqual(truth?.positions.slice(140, 147));
    expect([w.layers, w.topk]).toEqual([4, 2]);
    expect(w.call_ids.length).toBe(1);
  });

  it("refuses a bad limit and an unknown chain as the tokens route does", async () => {
    const bad = await GET(req("/x?limit=-1"), ctx("0-0"));
    expect(bad.status).toBe(400);
    expect(apiErrorSchema.parse(await bad.json()).error).toMatch(/limit must be/);
    const none = await GET(req("/x?chain=nope"), ctx("0-0"));
    expect(none.status).toBe(404);
  });
});

describe("reading routes", () => {
  it.each(["3-0", "4-0", "0-0"])("lists %s's bad routes fields by line", async (id) => {
    const capture = await readRolloutCapture(path.join(RUNS_DIR, MOE_RUN, "tokens"), id);
    const lines = capture.issues.filter((i) => /routed_experts/.test(i.message));
    expect(lines.map((i) => i.line)).toEqual(MOE_TRUTH.rollouts[id]?.issueLines);
    for (const i of lines) {
      expect(i.file).toBe(`${id}.tokens.jsonl`);
      expect(i.message).toMatch(/base64 has "!"|route rows for \d+ prompt \+ \d+ generated/);
    }
  });
});
