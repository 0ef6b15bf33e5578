import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprintDir, line, tokenRecord } from "@/lib/testing/temp-store";
import { apiErrorSchema } from "@/lib/schema/api";
import {
  rolloutFactsSchema,
  rolloutStampSchema,
  rolloutViewSchema,
} from "@/lib/schema/api-rollout";
import {
  lowProbMatchesSchema,
  segmentedWindowSchema,
  tokenWindowSchema,
} from "@/lib/schema/api-tokens";
import { callDetailSchema } from "@/lib/schema/api-call-detail";
import { findResultSchema } from "@/lib/schema/api-search";
import { GET as getRollout } from "./route";
import { GET as getTokens } from "./tokens/route";
import { GET as getCall } from "./calls/[call]/route";
import { GET as getFind } from "./find/route";

// A runs root with one run: a good rollout, a corrupt one and a newer-schema one.
let root: string;
const prev = process.env.ROLLOUT_LENS_RUNS;
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-routes-"));
  const dir = path.join(root, "run-a", "tokens");
  mkdirSync(dir, { recursive: true });
  // These routes are checked against the seed profile's reading (auto would take gym-v1: 2-0
  // carries schema_version).
  writeFileSync(path.join(root, "run-a", "run.json"), JSON.stringify({ builder_profile: "seed" }));
  writeFileSync(
    path.join(dir, "0-0.tokens.jsonl"),
    line(tokenRecord("0-0", "a", [1, 2, 3], [4, 5])) +
      line(tokenRecord("0-0", "b", [1, 2, 3, 4, 5, 6], [7], { created_at: 1786032155 })),
  );
  writeFileSync(
    path.join(dir, "1-0.tokens.jsonl"),
    line(tokenRecord("1-0", "a", [1], [2])) +
      '{"rollout_id": \n' +
      line(tokenRecord("1-0", "b", [1, 2, 3], [4])),
  );
  writeFileSync(
    path.join(dir, "2-0.tokens.jsonl"),
    line(tokenRecord("2-0", "a", [1], [2], { schema_version: 9 })),
  );
  process.env.ROLLOUT_LENS_RUNS = root;
});
afterAll(() => {
  if (prev === undefined) delete process.env.ROLLOUT_LENS_RUNS;
  else process.env.ROLLOUT_LENS_RUNS = prev;
});

const ctx = <T extends Record<string, string>>(params: T) =>
  ({ params: Promise.resolve(params) }) as never;
const req = (url: string) => new Request(`http://localhost${url}`);
const at = { run: "run-a", rollout: "0-0" };

/** A 200 body, parsed with the route's schema (strict: a field too many or too few fails). */
async function ok<T>(res: Response, schema: { parse: (v: unknown) => T }): Promise<T> {
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return schema.parse(await res.json());
}

describe("rollout routes against a fixture store", () => {
  it("find says it needs the run's tokenizer; an unknown chain is 404, an over-long query 400", async () => {
    const found = await ok(await getFind(req("/x?q=a%20(b"), ctx(at)), findResultSchema);
    expect(found).toMatchObject({ query: "a (b", chain: "main", total: 0, matches: [] });
    expect(found.unavailable).toMatch(/^Find needs the run's tokenizer .*run\.json/);
    const unknown = await getFind(req("/x?q=a&chain=branch-9"), ctx(at));
    expect([unknown.status, apiErrorSchema.parse(await unknown.json()).error]).toEqual([
      404,
      "no chain branch-9 in rollout 0-0",
    ]);
    expect((await getFind(req(`/x?q=${"a".repeat(1001)}`), ctx(at))).status).toBe(400);
  });

  it("answers a rollout, its stamp, its token windows, low-prob matches and a call, each in its schema", async () => {
    const view = await ok(
      await getRollout(req("/api/runs/run-a/rollouts/0-0"), ctx(at)),
      rolloutViewSchema,
    );
    expect(view.calls.map((c) => `${c.model_call_id}:${c.link}`)).toEqual(["a:root", "b:inferred"]);
    const { stamp } = await ok(
      await getRollout(req("/api/runs/run-a/rollouts/0-0?stamp=1"), ctx(at)),
      rolloutStampSchema,
    );
    expect(stamp).toBe(view.stamp);
    const opening = await ok(
      await getTokens(req("/x?chain=main&offset=0&limit=3&segments=1"), ctx(at)),
      segmentedWindowSchema,
    );
    expect(opening.segments).toEqual([
      { call: "a", kind: "prompt", start: 0, length: 3 },
      { call: "a", kind: "generated", start: 3, length: 2 },
      { call: "b", kind: "interstitial", start: 5, length: 1 },
      { call: "b", kind: "generated", start: 6, length: 1 },
    ]);
    const tokens = await ok(
      await getTokens(req("/x?chain=main&offset=4&limit=3"), ctx(at)),
      tokenWindowSchema,
    );
    expect(tokens).toMatchObject({
      total: 7,
      offset: 4,
      decoded: false,
      call_ids: ["a", "b"],
      tokens: {
        id: [5, 6, 7],
        mask: [1, 0, 1],
        log_prob: [-0.25, null, -0.25],
        text: null,
        call: [0, 1, 1],
      },
    });
    const low = await ok(
      await getTokens(req("/x?chain=main&lowprob=-0.1"), ctx(at)),
      lowProbMatchesSchema,
    );
    expect(low.matches.map((m) => `${m.pos}:${m.call}`)).toEqual(["3:a", "4:a", "6:b"]);
    const call = await ok(await getCall(req("/x"), ctx({ ...at, call: "b" })), callDetailSchema);
    expect(call.prompt).toMatchObject({ inherited_len: 5, interstitial_len: 1 });
    expect(call.call).toEqual(view.calls[1]);
  });

  it("a corrupt file is the rollout's error with its line, not a 500", async () => {
    const view = await ok(
      await getRollout(req("/api/runs/run-a/rollouts/1-0"), ctx({ run: "run-a", rollout: "1-0" })),
      rolloutViewSchema,
    );
    expect(view.verdict.error).toMatch(/1-0\.tokens\.jsonl: line 2: not valid JSON/);
    expect(view.verdict.mask_sample).toBe(true);
  });

  it("a record of a newer schema is refused by name", async () => {
    const view = await ok(
      await getRollout(req("/api/runs/run-a/rollouts/2-0"), ctx({ run: "run-a", rollout: "2-0" })),
      rolloutViewSchema,
    );
    expect(view.verdict.error).toMatch(/schema_version 9/);
  });

  it("unknown runs, rollouts, chains and calls are 404; bad ids and parameters 400", async () => {
    const cases: Array<[Response, number, RegExp]> = [
      [
        await getRollout(req("/x"), ctx({ run: "nope", rollout: "0-0" })),
        404,
        /no run .* in the runs root/,
      ],
      [
        await getRollout(req("/x"), ctx({ run: "run-a", rollout: "5-5" })),
        404,
        /unknown rollout 5-5/,
      ],
      [
        await getRollout(req("/x"), ctx({ run: "run-a", rollout: "../../etc/passwd" })),
        400,
        /invalid rollout id/,
      ],
      [await getRollout(req("/x"), ctx({ run: "..", rollout: "0-0" })), 400, /invalid run id/],
      [
        await getRollout(req("/x?profile=best"), ctx({ run: "run-a", rollout: "0-0" })),
        400,
        /profile must be one of/,
      ],
      [
        await getTokens(req("/x?chain=branch-3"), ctx({ run: "run-a", rollout: "0-0" })),
        404,
        /no chain branch-3/,
      ],
      [
        await getTokens(req("/x?limit=ten"), ctx({ run: "run-a", rollout: "0-0" })),
        400,
        /limit must be a non-negative integer/,
      ],
      [
        await getTokens(req("/x?lowprob=1"), ctx({ run: "run-a", rollout: "0-0" })),
        400,
        /lowprob must be a log prob/,
      ],
      [
        await getCall(req("/x"), ctx({ run: "run-a", rollout: "0-0", call: "zz" })),
        404,
        /no call zz/,
      ],
    ];
    for (const [res, status, message] of cases) {
      expect(res.status).toBe(status);
      expect(apiErrorSchema.parse(await res.json()).error).toMatch(message);
    }
  });

  it("the view ships before the other profile is decided; ?facts=1 decides it", async () => {
    const at = ctx({ run: "run-a", rollout: "0-0" });
    const facts = rolloutFactsSchema.parse(await (await getRollout(req("/x?facts=1"), at)).json());
    // run-a's run.json says seed: the seed profile decides, so the other profile is gym-v1.
    expect(facts.other_profile.verdict.profile).toBe("gym-v1");
    // Both calls extend one prefix: gym-v1 trains on the same single chain.
    expect(facts.other_profile.verdict.mask_sample).toBe(false);
    expect(facts.other_profile.differs).toBe(false);
  });

  it("never writes to the store", async () => {
    const dir = path.join(root, "run-a", "tokens");
    const before = fingerprintDir(dir);
    for (const id of ["0-0", "1-0", "2-0"])
      await getRollout(req("/x"), ctx({ run: "run-a", rollout: id }));
    expect(fingerprintDir(dir)).toEqual(before);
  });
});
