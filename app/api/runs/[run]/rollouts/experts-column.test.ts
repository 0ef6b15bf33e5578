// The rollouts table over the moe-routes sample run: each row's expert_fallback_fraction equals the
// generator's truth (null without routes), sorts with nulls last and filters by a least fraction;
// the run's health has it per step and alerts past its threshold, linking to those rollouts.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { MOE_RUN, MOE_TRUTH, writeMoeRoutes } from "@/fixtures/generator/moe-routes";
import { rolloutPageSchema, runHealthSchema } from "@/lib/schema/api-runs";
import { req, runCtx, serveFixtureRuns } from "@/lib/testing/fixture-runs";
import { GET } from "./route";
import { GET as getHealth } from "../health/route";

serveFixtureRuns();
beforeAll(async () => {
  await writeMoeRoutes(mkdtempSync(path.join(os.tmpdir(), "moe-truth-")));
});

/** The page once the index has summarised every rollout from the store. */
async function page(query: string) {
  for (let i = 0; i < 200; i++) {
    const res = await GET(req(`/x?${query}`), runCtx(MOE_RUN));
    const p = rolloutPageSchema.parse(await res.json());
    if (!p.progress.running && p.rollouts.every((r) => r.source === "store")) return p;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the index did not finish");
}

const close = (x: number | null) => (x === null ? null : Math.round(x * 1e6) / 1e6);

describe("expert_fallback_fraction in the rollouts table", () => {
  it("equals the planted fraction per rollout, with its counts", async () => {
    const p = await page("");
    expect(p.rollouts).toHaveLength(6);
    for (const r of p.rollouts) {
      const truth = MOE_TRUTH.rollouts[r.rollout_id];
      expect(r.expert_fallback_fraction).toBe(close(truth?.fraction ?? null));
      if (truth?.fraction !== null)
        expect(r.expert_routes).toEqual({ expected: truth?.expected, fallback: truth?.fallback });
    }
  });

  it("warns on each rollout at or past 1%, as the run's alert lists them", async () => {
    const p = await page("");
    const warned = p.rollouts.filter((r) =>
      r.severity_reasons.some((x) => x.code === "expert_fallback"),
    );
    const over = Object.entries(MOE_TRUTH.rollouts)
      .filter(([, t]) => t.fraction !== null && t.fraction >= 0.01)
      .map(([id]) => id);
    expect(over.length).toBeGreaterThan(0);
    expect(over.length).toBeLessThan(p.rollouts.length); // some stay unwarned
    expect(warned.map((r) => r.rollout_id)).toEqual(over);
    for (const r of warned) expect(r.severity).not.toBe("trained");
  });

  it("sorts by it, nulls last", async () => {
    const p = await page("sort=expert_fallback_fraction&dir=desc");
    const known = Object.entries(MOE_TRUTH.rollouts)
      .filter(([, t]) => t.fraction !== null)
      .sort(([, a], [, b]) => (b.fraction ?? 0) - (a.fraction ?? 0))
      .map(([id]) => id);
    expect(p.rollouts.map((r) => r.rollout_id)).toEqual([...known, "5-0"]);
  });

  it("filters by a least fraction", async () => {
    const p = await page("expert_fallback=0.1");
    const want = Object.entries(MOE_TRUTH.rollouts)
      .filter(([, t]) => t.fraction !== null && t.fraction >= 0.1)
      .map(([id]) => id);
    expect(p.rollouts.map((r) => r.rollout_id)).toEqual(want);
    const bad = await GET(req("/x?expert_fallback=2"), runCtx(MOE_RUN));
    expect(bad.status).toBe(400);
  });
});

describe("expert fallback in the run's health", () => {
  it("is the planted fraction per step, and an alert that lists the rollouts past 1%", async () => {
    await page(""); // the index has every rollout
    const res = await getHealth(req("/x"), runCtx(MOE_RUN));
    const h = runHealthSchema.parse(await res.json());
    const steps = Object.fromEntries(h.per_step.map((p) => [p.step, p.expert_fallback_fraction]));
    expect(steps).toEqual(MOE_TRUTH.steps);
    const alert = h.alerts.find((a) => a.kind === "expert_fallback");
    const over = Object.entries(MOE_TRUTH.rollouts)
      .filter(([, t]) => t.fraction !== null && t.fraction >= 0.01)
      .map(([id]) => id);
    expect(alert?.rollout_ids).toEqual(over);
    expect(alert?.table_query).toBe("expert_fallback=0.01");
    let fallback = 0,
      expected = 0;
    for (const t of Object.values(MOE_TRUTH.rollouts))
      if (t.fraction !== null)
        [fallback, expected] = [fallback + t.fallback, expected + t.expected];
    expect(alert?.message).toContain(`(${fallback} of ${expected} routes;`);
    // A rollout without any route (5-0: no call carries them) is named apart, not left unsaid.
    const none = Object.values(MOE_TRUTH.rollouts).filter((t) => t.fraction === null).length;
    expect(none).toBe(1);
    expect(alert?.message).toContain(
      "1 more rollout carries no route at all in a run whose others have them",
    );
  });
});
