// The summary index's SQL engine against the in-memory reference over every fixture run: the same
// health report (lib/health/health computeHealth with the run's severity applied), the same rows in
// the same order for every sort and each filter the table offers, the same neighbours. The
// reference's own expected values are checked in health.test.ts, lib/index/query.test.ts and
// neighbors.test.ts; here the two engines must agree.
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { parseRolloutQuery, SORT_KEYS } from "@/lib/index/query";
import { neighborsOf, selectRollouts } from "@/lib/testing/rollout-query-reference";
import { getRun } from "@/lib/runs/root";
import { SummaryIndex } from "@/lib/index/run-index";
import type { HealthReport, RolloutSummary } from "@/lib/schema";
import { indexedSummaries, sqlHealth, sqlNeighbours, sqlSelect } from "@/lib/testing/sql-engine";
import { computeHealth, withRunSeverity } from "@/lib/testing/health-reference";
import { lifecycleAlerts } from "./alerts/lifecycle";

/** The fixture runs with rollouts (a token store or records; the capture-off ones have logs only). */
const RUNS = readdirSync(RUNS_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .filter((n) =>
    readdirSync(path.join(RUNS_DIR, n)).some((f) => f === "tokens" || f === "rollouts.jsonl"),
  );

/** Means summed in another order differ in the last bits: compared to 12 significant digits. */
function rounded<T>(x: T): T {
  return JSON.parse(
    JSON.stringify(x, (_, v: unknown) =>
      typeof v === "number" && !Number.isInteger(v) ? Number(v.toPrecision(12)) : v,
    ),
  ) as T;
}

const FILTERS = [
  "verdict=masked",
  "verdict=trained",
  "severity=trained_with_warnings",
  "severity=trained",
  "reason=other_model_main",
  "reason=no_capture",
  "reason=cut_short",
  "status=200",
  "status=422",
  "step=1",
  "cut_short=1",
  "alert=unreadable",
  "delivered=1.0",
  "calls=3",
  "chains=1",
  "roots=2",
  "side_call=pattern",
  "error_category=client_error",
  "q=0-",
  "q=valueerror",
];

describe.each(RUNS)("the SQL engine on %s", (name) => {
  let summaries: RolloutSummary[] = [];
  let served: RolloutSummary[] = [];
  let manifest: { capture?: "on" | "off" } = {};
  let policy: string | null = null;

  it("indexes the run", async () => {
    const run = await getRun(name, RUNS_DIR);
    manifest = run.manifest;
    summaries = await indexedSummaries(new SummaryIndex(run, null), {
      minIntervalMs: 0,
      waitMs: 60_000,
    });
    const sev = withRunSeverity(summaries, manifest);
    served = sev.summaries;
    policy = sev.policy_model;
    expect(summaries.length).toBeGreaterThan(0);
  }, 60_000);

  it("gives the reference's health report", () => {
    const reference: HealthReport = computeHealth(served, { policyModel: policy, pending: 2 });
    const expected = { ...reference, alerts: [...reference.alerts, ...lifecycleAlerts(served)] };
    const actual = sqlHealth(summaries, manifest, { pending: 2 });
    expect(rounded(actual)).toEqual(rounded(expected));
  });

  it("lists the reference's rows for every sort, direction and filter", () => {
    const qs = [
      ...SORT_KEYS.flatMap((k) => [`sort=${k}`, `sort=${k}&dir=desc`]),
      ...FILTERS,
      ...FILTERS.map((f) => `${f}&sort=reward&dir=desc`),
    ];
    for (const s of qs) {
      const q = parseRolloutQuery(new URLSearchParams(s));
      const ids = sqlSelect(summaries, q, manifest).map((r) => r.rollout_id);
      expect(ids, s).toEqual(selectRollouts(served, q).map((r) => r.rollout_id));
    }
    const q = parseRolloutQuery(new URLSearchParams("sort=severity&dir=desc"));
    expect(sqlSelect(summaries, q, manifest)).toEqual(selectRollouts(served, q));
  });

  it("gives the reference's neighbours", () => {
    for (const s of [
      "sort=reward&dir=desc",
      "sort=bytes",
      "verdict=masked",
      "sort=rollout_id&dir=desc",
    ]) {
      const q = parseRolloutQuery(new URLSearchParams(s));
      for (const r of summaries.slice(0, 12))
        expect(sqlNeighbours(summaries, r.rollout_id, q, manifest), s).toEqual(
          neighborsOf(served, r.rollout_id, q),
        );
    }
  });
});
