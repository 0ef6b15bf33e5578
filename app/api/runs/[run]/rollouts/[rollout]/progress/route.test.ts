// The loading page's two routes on the sample runs: build progress (parsed with its strict schema,
// queued with the files' bytes before any build, ready after one) and neighbours in the table's
// order (the same order the rollouts route pages out).
import { mkdtempSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { inspectRollout } from "@/lib/inspect/rollout-model";
import { getRun } from "@/lib/runs/root";
import { indexFor } from "@/lib/index/run-index";
import { apiErrorSchema } from "@/lib/schema/api";
import { rolloutPageSchema } from "@/lib/schema/api-runs";
import { buildProgressSchema, rolloutNeighborsSchema } from "@/lib/schema/api-progress";
import { GET as getProgress } from "./route";
import { GET as getNeighbors } from "../neighbors/route";
import { GET as getRollouts } from "../../route";

const env = { runs: process.env.ROLLOUT_LENS_RUNS, cache: process.env.ROLLOUT_LENS_CACHE };
beforeAll(() => {
  process.env.ROLLOUT_LENS_RUNS = RUNS_DIR;
  process.env.ROLLOUT_LENS_CACHE = mkdtempSync(
    path.join(os.tmpdir(), "rollout-lens-progress-routes-"),
  );
});
afterAll(() => {
  for (const [k, v] of [
    ["ROLLOUT_LENS_RUNS", env.runs],
    ["ROLLOUT_LENS_CACHE", env.cache],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const ctx = <T extends Record<string, string>>(params: T) =>
  ({ params: Promise.resolve(params) }) as never;
const req = (url: string) => new Request(`http://localhost${url}`);
const RUN = "claude-code-capture-on";

async function ok<T>(res: Response, schema: { parse: (v: unknown) => T }): Promise<T> {
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return schema.parse(await res.json());
}

async function error(res: Response, status: number): Promise<string> {
  expect(res.status).toBe(status);
  return apiErrorSchema.parse(await res.json()).error;
}

describe("progress route", () => {
  const progress = (rollout: string, qs = "", run = RUN) =>
    getProgress(req(`/api/runs/${run}/rollouts/${rollout}/progress${qs}`), ctx({ run, rollout }));

  it("is queued with the token and capture files' bytes before a build, ready after one", async () => {
    const dir = path.join(RUNS_DIR, RUN);
    const bytes =
      statSync(path.join(dir, "tokens", "7-0.tokens.jsonl")).size +
      statSync(path.join(dir, "model-calls", "7-0.capture.jsonl")).size;
    expect(await ok(await progress("7-0"), buildProgressSchema)).toEqual({
      state: "queued",
      total_bytes: bytes,
    });
    await inspectRollout(await getRun(RUN), "7-0");
    expect(await ok(await progress("7-0"), buildProgressSchema)).toEqual({ state: "ready" });
    // the other profile's build is another one, not started
    expect(await ok(await progress("7-0", "?profile=gym-v1"), buildProgressSchema)).toEqual({
      state: "queued",
      total_bytes: bytes,
    });
  });

  it("answers 400 for a bad rollout id or profile and 404 for an unknown run", async () => {
    expect(await error(await progress("..%2Fx"), 400)).toMatch(/rollout id/i);
    expect(await error(await progress("7-0", "?profile=best"), 400)).toMatch(/profile/);
    await error(await progress("7-0", "", "no-such-run"), 404);
  });
});

describe("neighbors route", () => {
  const neighbors = (rollout: string, qs = "") =>
    getNeighbors(
      req(`/api/runs/${RUN}/rollouts/${rollout}/neighbors${qs}`),
      ctx({ run: RUN, rollout }),
    );

  it("walks the rollouts route's order under the same sort and filters", async () => {
    await indexFor(await getRun(RUN)).snapshot({ waitMs: 60_000 }); // both routes see the whole run
    const qs = "?sort=n_calls&dir=desc&verdict=trained";
    const page = await ok(
      await getRollouts(req(`/api/runs/${RUN}/rollouts${qs}&limit=5000`), ctx({ run: RUN })),
      rolloutPageSchema,
    );
    const order = page.rollouts.map((s) => s.rollout_id);
    expect(order.length).toBeGreaterThan(3);
    for (const [i, id] of order.entries()) {
      const n = await ok(await neighbors(id, qs), rolloutNeighborsSchema);
      expect(n).toEqual({
        prev: order[i - 1] ?? null,
        next: order[i + 1] ?? null,
        index: i,
        total: order.length,
      });
    }
  });

  it("answers 400 for a bad sort or rollout id and 404 for an unknown run", async () => {
    expect(await error(await neighbors("0-0", "?sort=nope"), 400)).toMatch(/sort/);
    await error(await neighbors("..%2Fx"), 400);
    await error(
      await getNeighbors(
        req("/api/runs/no-such-run/rollouts/0-0/neighbors"),
        ctx({ run: "no-such-run", rollout: "0-0" }),
      ),
      404,
    );
  });
});
