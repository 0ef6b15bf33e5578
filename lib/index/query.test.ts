// The rollouts table's reason filter lists rollouts by any reason the severity model gives (its
// warnings as well as the consumer's mask reasons), served from the summary index like the mask
// reasons; the `alert` filter lists exactly the rollouts a run alert names; and the chart-bucket
// filters (`calls=7`, `delivered=0.9`, …) list exactly a bar's rollouts. Over the sample runs,
// through the rollouts route's own path: lib/health/run-health.test.ts and
// components/run/charts/chart-buckets.test.ts.
import { describe, expect, it } from "vitest";
import type { RolloutSummary } from "@/lib/schema";
import { summaryOf } from "@/lib/testing/summary";
import { sqlSelect } from "@/lib/testing/sql-engine";
import { alertTableQuery, filterKey, parseRolloutQuery, type RolloutQuery } from "./query";
import { selectRollouts as inMemory } from "@/lib/testing/rollout-query-reference";

/** The in-memory reference's rows, checked against the summary index's SQL for the same query. */
function selectRollouts(all: readonly RolloutSummary[], q: RolloutQuery): RolloutSummary[] {
  const rows = inMemory(all, q);
  expect(sqlSelect(all, q), JSON.stringify(q)).toEqual(rows);
  return rows;
}

const query = (qs: string) => parseRolloutQuery(new URLSearchParams(qs));
const ids = (rows: RolloutSummary[]) => rows.map((r) => r.rollout_id);

describe("reason filter over hand-made summaries", () => {
  const warned = (id: string, code: string, title: string) =>
    summaryOf({
      rollout_id: id,
      severity: "trained_with_warnings",
      severity_reasons: [{ code, title }],
    });
  const all = [
    summaryOf({ rollout_id: "0-0" }),
    warned("1-0", "torn_tail", "torn tail"),
    warned("2-0", "branches_dropped", "branches dropped"),
    summaryOf({
      rollout_id: "3-0",
      severity: "masked",
      mask_sample: true,
      mask_reasons: ["multiple_roots"],
      severity_reasons: [{ code: "multiple_roots", title: "several roots" }],
    }),
    summaryOf({
      rollout_id: "4-0",
      severity: "masked",
      mask_sample: true,
      severity_reasons: [{ code: "agent_masked", title: "masked by the agent" }],
    }),
  ];

  it("lists rollouts with a warning, as it lists those with a mask reason", () => {
    expect(ids(selectRollouts(all, query("reason=torn_tail")))).toEqual(["1-0"]);
    expect(ids(selectRollouts(all, query("reason=branches_dropped")))).toEqual(["2-0"]);
    expect(ids(selectRollouts(all, query("reason=multiple_roots")))).toEqual(["3-0"]);
    expect(ids(selectRollouts(all, query("reason=agent_masked")))).toEqual(["4-0"]);
    expect(ids(selectRollouts(all, query("reason=cut_short")))).toEqual([]);
  });

  it("lists the rollouts of an alert with no filter of its own", () => {
    const rows = [
      summaryOf({ rollout_id: "0-0", dangling_intents: 2 }),
      summaryOf({ rollout_id: "1-0", other_profile_disagrees: true }),
      summaryOf({ rollout_id: "2-0", unreadable: true }),
    ];
    expect(ids(selectRollouts(rows, query("alert=dangling_intents")))).toEqual(["0-0"]);
    expect(ids(selectRollouts(rows, query("alert=profile_disagreement")))).toEqual(["1-0"]);
    expect(ids(selectRollouts(rows, query("alert=unreadable")))).toEqual(["2-0"]);
    expect(filterKey(query("alert=unreadable"))).not.toBe(filterKey(query("")));
    expect(() => query("alert=masked_fraction")).toThrow(/alert/);
  });

  it("gives every rollout alert a table query and file alerts none", () => {
    expect(alertTableQuery("cut_short")).toBe("cut_short=1");
    expect(alertTableQuery("other_model_main")).toBe("reason=other_model_main");
    expect(alertTableQuery("masked_fraction")).toBe("severity=masked");
    expect(alertTableQuery("dangling_intents")).toBe("alert=dangling_intents");
    expect(alertTableQuery("unreadable_records")).toBeNull();
  });
});

describe("chart-bucket filters over hand-made summaries", () => {
  const all = [
    summaryOf({ rollout_id: "0-0", n_calls: 7, chains: 1, roots: 1, delivered_fraction: 1 }),
    summaryOf({ rollout_id: "1-0", n_calls: 3, chains: 2, roots: 2, delivered_fraction: 0.95 }),
    summaryOf({
      rollout_id: "2-0",
      n_calls: 7,
      chains: null,
      roots: null,
      delivered_fraction: null,
    }),
    summaryOf({ rollout_id: "3-0", n_calls: 12, chains: 1, roots: 1, delivered_fraction: 0.3 }),
    summaryOf({ rollout_id: "4-0", n_calls: 2.5, delivered_fraction: 0.9 }),
    summaryOf({ rollout_id: "5-0", delivered_fraction: 0.89999 }),
  ];

  it("lists a bucket's rollouts by calls, chains, roots and delivered fraction", () => {
    expect(ids(selectRollouts(all, query("calls=7")))).toEqual(["0-0", "2-0"]);
    expect(ids(selectRollouts(all, query("calls=2.5")))).toEqual(["4-0"]);
    expect(ids(selectRollouts(all, query("calls=1")))).toEqual([]);
    expect(ids(selectRollouts(all, query("chains=2")))).toEqual(["1-0"]);
    expect(ids(selectRollouts(all, query("roots=1")))).toEqual(["0-0", "3-0", "4-0", "5-0"]);
    // Buckets 0.1 wide by their lower edge; exactly 1 is "1.0"; no fraction is in none.
    expect(ids(selectRollouts(all, query("delivered=1.0")))).toEqual(["0-0"]);
    expect(ids(selectRollouts(all, query("delivered=0.9")))).toEqual(["1-0", "4-0"]);
    expect(ids(selectRollouts(all, query("delivered=0.8")))).toEqual(["5-0"]);
    expect(ids(selectRollouts(all, query("delivered=0.3")))).toEqual(["3-0"]);
    expect(ids(selectRollouts(all, query("delivered=0.9&calls=3")))).toEqual(["1-0"]);
  });

  it("lists the rollouts with a side call, fallback or error category of a kind", () => {
    const rows = [
      summaryOf({ rollout_id: "0-0", side_call_reasons: { pattern: 2, self_calibration: 0 } }),
      summaryOf({ rollout_id: "1-0", side_call_reasons: { pattern: 0, self_calibration: 1 } }),
      summaryOf({ rollout_id: "2-0", fallbacks: { parent_call_id_missing: 1, digest: 0 } }),
      summaryOf({ rollout_id: "3-0", error_categories: { client_error: 1 } }),
    ];
    expect(ids(selectRollouts(rows, query("side_call=pattern")))).toEqual(["0-0"]);
    expect(ids(selectRollouts(rows, query("side_call=self_calibration")))).toEqual(["1-0"]);
    expect(ids(selectRollouts(rows, query("fallback=parent_call_id_missing")))).toEqual(["2-0"]);
    expect(ids(selectRollouts(rows, query("fallback=digest")))).toEqual([]); // counted zero times
    expect(ids(selectRollouts(rows, query("fallback=constructor")))).toEqual([]);
    expect(ids(selectRollouts(rows, query("error_category=client_error")))).toEqual(["3-0"]);
    expect(ids(selectRollouts(rows, query("error_category=toString")))).toEqual([]);
  });

  it("lists a mask-reason bar's rollouts, masked ones with no reason by why", () => {
    const masked = (id: string, over: Partial<RolloutSummary>) =>
      summaryOf({ rollout_id: id, severity: "masked", mask_sample: true, ...over });
    const rows = [
      masked("0-0", { mask_reasons: ["build_error"], error: "ValueError: x" }),
      masked("1-0", { error: "ValueError: y" }),
      masked("2-0", {}),
      masked("3-0", { mask_reasons: ["unresolved_retry", "multiple_roots"] }),
      summaryOf({ rollout_id: "4-0" }),
    ];
    expect(ids(selectRollouts(rows, query("mask_reason=build_error")))).toEqual(["0-0"]);
    expect(ids(selectRollouts(rows, query("mask_reason=error")))).toEqual(["1-0"]);
    expect(ids(selectRollouts(rows, query("mask_reason=masked_by_record")))).toEqual(["2-0"]);
    expect(ids(selectRollouts(rows, query("mask_reason=multiple_roots")))).toEqual(["3-0"]);
  });

  it("refuses values no bucket has, and keys each bucket's rows apart", () => {
    expect(() => query("delivered=0.95")).toThrow(/delivered/);
    expect(() => query("delivered=1.1")).toThrow(/delivered/);
    expect(() => query("calls=seven")).toThrow(/calls/);
    expect(() => query("side_call=other")).toThrow(/side_call/);
    const keys = ["calls=7", "chains=7", "roots=7", "delivered=0.7", "mask_reason=x", "fallback=x"];
    expect(new Set(keys.map((k) => filterKey(query(k)))).size).toBe(keys.length);
  });
});
