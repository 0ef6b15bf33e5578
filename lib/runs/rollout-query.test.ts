// The rollouts table's reason filter lists rollouts by any reason the severity model gives (its
// warnings as well as the consumer's mask reasons), served from the summary index like the mask
// reasons; and the `alert` filter lists exactly the rollouts a run alert names. Over the sample
// runs, through the rollouts route's own path: lib/health/run-health.test.ts.
import { describe, expect, it } from "vitest";
import type { RolloutSummary } from "@/lib/schema";
import { summaryOf } from "@/lib/testing/summary";
import { alertTableQuery, filterKey, parseRolloutQuery, selectRollouts } from "./rollout-query";

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
