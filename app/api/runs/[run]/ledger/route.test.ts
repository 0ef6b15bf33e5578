// GET /api/runs/{run}/ledger over the committed fixture runs, through the real handler: the body
// parses with the strict contract and is never cached; a run without captured tokens answers an
// empty ledger; an unknown run is a 404. The numbers themselves: lib/ledger/run-ledger.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { servedSnapshot } from "@/lib/index";
import { getRun } from "@/lib/runs";
import { runLedgerSchema } from "@/lib/schema";
import { serveFixtureRuns, req, runCtx } from "@/lib/testing/fixture-runs";
import { GET } from "./route";

serveFixtureRuns();

// The run indexed first: on a loaded machine the route's own wait (1.5 s) can end before the
// index does, and a partial ledger is another answer ("none is summarised yet").
beforeAll(async () => {
  await servedSnapshot(await getRun("signal-ledger"), 60_000);
}, 90_000);

describe("GET /api/runs/{run}/ledger", () => {
  it("answers signal-ledger's steps, a known and an unknown trainer stage", async () => {
    const res = await GET(req(), runCtx("signal-ledger"));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const l = runLedgerSchema.parse(await res.json());
    expect(l.steps.map((s) => [s.step, s.in_loss_mask === null])).toEqual([
      [0, false],
      [1, true],
    ]);
    expect(l.sentence).toMatch(/reached the gradient/);
  });

  it("a run without captured tokens says so; an unknown run is a 404", async () => {
    const l = runLedgerSchema.parse(await (await GET(req(), runCtx("grpo-seeds-on-1"))).json());
    expect(l.totals.captured).toBe(0);
    expect((await GET(req(), runCtx("no-such-run"))).status).toBe(404);
  });
});
