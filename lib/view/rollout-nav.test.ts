// The pure URL helpers of previous / next; that their keys are the table query's is checked in
// lib/index/neighbors.test.ts (lib/view does not import lib/runs).
import { describe, expect, it } from "vitest";
import { summaryOf } from "@/lib/testing/summary";
import {
  alertTableHref,
  bucketTableHref,
  chartBucketQuery,
  deliveredBucket,
  inspectorHref,
  isBucketShown,
  maskReasonKeys,
  neighborHref,
  neighborsUrl,
  reasonOptions,
  tableHref,
  tableQueryOf,
  textHitHref,
} from "./rollout-nav";

const runPage = new URLSearchParams(
  "sort=reward&dir=desc&verdict=masked&severity=masked&reason=unresolved_retry&status=422&step=3&cut_short=1&q=a b&hide=bytes,chains&offset=400",
);

describe("rollout navigation URLs", () => {
  it("a row link carries the sort and filters, not the columns or the window", () => {
    const href = inspectorHref("run a", "3-1", runPage);
    const url = new URL(href, "http://x");
    expect(url.pathname).toBe("/runs/run%20a/rollouts/3-1");
    expect([...url.searchParams.keys()]).toEqual([
      "sort",
      "dir",
      "verdict",
      "severity",
      "reason",
      "status",
      "step",
      "cut_short",
      "q",
    ]);
    expect(url.searchParams.get("q")).toBe("a b");
    expect(url.searchParams.get("step")).toBe("3");
  });

  it("a text hit opens the inspector at its call and token, or an error body at the call's detail", () => {
    const table = new URLSearchParams('sort=reward&text="Traceback" kind:error&hide=bytes');
    const hit = { call: "c-7", pos: 512, match: "Traceback" };
    const at = new URL(textHitHref("run a", "3-1", table, hit), "http://x");
    expect(at.pathname).toBe("/runs/run%20a/rollouts/3-1");
    expect(Object.fromEntries(at.searchParams)).toEqual({
      sort: "reward",
      text: '"Traceback" kind:error',
      tab: "tokens",
      chain: "main",
      call: "c-7",
      pos: "512",
      find: "Traceback",
    });
    const body = new URL(
      textHitHref("r", "0-0", table, { call: "c-9", pos: null, match: "x" }),
      "http://x",
    );
    expect(Object.fromEntries(body.searchParams)).toEqual({
      sort: "reward",
      text: '"Traceback" kind:error',
      tab: "call",
      call: "c-9",
    });
  });

  it("a row link without sort or filters is the bare inspector URL", () => {
    expect(inspectorHref("r", "0-0", new URLSearchParams("hide=bytes&sort="))).toBe(
      "/runs/r/rollouts/0-0",
    );
  });

  it("previous / next keep the table query, the profile, the tab and the view settings, and drop the rollout's own state", () => {
    const inspector = new URLSearchParams(
      "sort=bytes&step=1&profile=gym-v1&tab=chains&call=abc&chain=main&pos=120&low=-2&message=4&shade=1",
    );
    expect(neighborHref("r", "1-2", inspector)).toBe(
      "/runs/r/rollouts/1-2?sort=bytes&step=1&profile=gym-v1&tab=chains&shade=1&low=-2",
    );
    expect(neighborsUrl("r", "1-2", inspector)).toBe(
      "/api/runs/r/rollouts/1-2/neighbors?sort=bytes&step=1",
    );
    expect(tableHref("r", inspector)).toBe("/runs/r?sort=bytes&step=1");
    expect(tableQueryOf(new URLSearchParams("profile=seed")).toString()).toBe("");
  });
});

describe("the reason filter's options", () => {
  it("offers the run's mask reasons and the warnings it has, each with its count", () => {
    const options = reasonOptions({
      mask_reasons: [
        { key: "multiple_roots", count: 2 },
        { key: "masked_by_record", count: 3 },
        { key: "error", count: 1 },
        { key: "build_error", count: 1 },
      ],
      severity_reasons: [
        { key: "cut short", count: 12 },
        { key: "torn tail", count: 1 },
        { key: "several roots", count: 2 },
        { key: "token ids outside any vocabulary", count: 4 },
      ],
    });
    expect(options).toEqual([
      { group: "mask reasons", value: "multiple_roots", label: "several roots (2)" },
      { group: "mask reasons", value: "agent_masked", label: "masked by the agent (3)" },
      { group: "mask reasons", value: "build_error", label: "build error (2)" },
      { group: "warnings", value: "cut_short", label: "cut short (12)" },
      {
        group: "warnings",
        value: "out_of_vocabulary",
        label: "token ids outside any vocabulary (4)",
      },
      { group: "warnings", value: "torn_tail", label: "torn tail (1)" },
    ]);
  });

  it("links an alert to the run's table under its query, and a file alert nowhere", () => {
    expect(alertTableHref("run a", { table_query: "alert=dangling_intents" })).toBe(
      "/runs/run%20a?alert=dangling_intents",
    );
    expect(alertTableHref("r", {})).toBeNull();
  });
});

describe("a chart bucket's table query", () => {
  it("uses the table's own filters where they list exactly the bar's rollouts", () => {
    expect(chartBucketQuery("verdicts", "masked")).toBe("severity=masked");
    expect(chartBucketQuery("verdicts", "trained_with_warnings")).toBe(
      "severity=trained_with_warnings",
    );
    expect(chartBucketQuery("mask-reasons", "unresolved_retry")).toBe("reason=unresolved_retry");
    expect(chartBucketQuery("mask-reasons", "deleted")).toBe("reason=deleted");
    expect(chartBucketQuery("status", "422")).toBe("status=422");
    expect(chartBucketQuery("step", "3")).toBe("step=3");
  });

  it("maps a reason title of 'why not simply trained' to the severity model's code", () => {
    expect(chartBucketQuery("severity-reasons", "unresolved final retry")).toBe(
      "reason=unresolved_retry",
    );
    expect(chartBucketQuery("severity-reasons", "only side calls")).toBe("reason=all_side_calls");
    expect(chartBucketQuery("severity-reasons", "masked by the agent")).toBe("reason=agent_masked");
    expect(chartBucketQuery("severity-reasons", "cut short")).toBe("reason=cut_short");
    expect(chartBucketQuery("severity-reasons", "token ids outside any vocabulary")).toBe(
      "reason=out_of_vocabulary",
    );
    expect(chartBucketQuery("severity-reasons", "retired tombstone")).toBe("reason=retired");
    // A mask reason this version does not know is titled by its name with spaces.
    expect(chartBucketQuery("severity-reasons", "deleted")).toBe("reason=deleted");
  });

  it("uses a bucket filter where no table filter is exact", () => {
    // build_error as a reason also lists masked rollouts with an error and no reason (`error`).
    expect(chartBucketQuery("mask-reasons", "build_error")).toBe("mask_reason=build_error");
    expect(chartBucketQuery("mask-reasons", "error")).toBe("mask_reason=error");
    expect(chartBucketQuery("mask-reasons", "masked_by_record")).toBe(
      "mask_reason=masked_by_record",
    );
    expect(chartBucketQuery("delivered", "0.9")).toBe("delivered=0.9");
    expect(chartBucketQuery("calls", "7")).toBe("calls=7");
    expect(chartBucketQuery("chains", "2")).toBe("chains=2");
    expect(chartBucketQuery("roots", "1")).toBe("roots=1");
    expect(chartBucketQuery("side-calls", "self_calibration")).toBe("side_call=self_calibration");
    expect(chartBucketQuery("fallbacks", "parent_call_id_missing")).toBe(
      "fallback=parent_call_id_missing",
    );
    expect(chartBucketQuery("error-categories", "client_error")).toBe(
      "error_category=client_error",
    );
  });

  it("has no query for rollouts the table cannot list (not summarised yet)", () => {
    expect(chartBucketQuery("verdicts", "pending")).toBeNull();
  });

  it("replaces the table's filters with the bucket's, keeping its sort and columns", () => {
    const page = new URLSearchParams("sort=reward&dir=desc&verdict=masked&calls=3&q=x&hide=bytes");
    const href = bucketTableHref("run a", page, "reason=unresolved_retry");
    expect(href).toBe("/runs/run%20a?sort=reward&dir=desc&hide=bytes&reason=unresolved_retry");
    expect(bucketTableHref("r", page, "")).toBe("/runs/r?sort=reward&dir=desc&hide=bytes");
  });

  it("knows when the table lists exactly a bucket", () => {
    const shown = new URLSearchParams("sort=reward&calls=7&hide=bytes");
    expect(isBucketShown(shown, "calls=7")).toBe(true);
    expect(isBucketShown(shown, "calls=3")).toBe(false);
    expect(isBucketShown(new URLSearchParams("calls=7&step=2"), "calls=7")).toBe(false);
  });

  it("files a rollout under the delivered and mask-reason buckets", () => {
    expect([0, 0.05, 0.1, 0.3, 0.7, 0.95, 0.999, 1, 1.2].map(deliveredBucket)).toEqual([
      "0.0",
      "0.0",
      "0.1",
      "0.3",
      "0.7",
      "0.9",
      "0.9",
      "1.0",
      "1.0",
    ]);
    const masked = { severity: "masked" as const, mask_sample: true };
    expect(maskReasonKeys(summaryOf({ ...masked, mask_reasons: ["multiple_roots"] }))).toEqual([
      "multiple_roots",
    ]);
    expect(maskReasonKeys(summaryOf({ ...masked, error: "ValueError" }))).toEqual(["error"]);
    expect(maskReasonKeys(summaryOf(masked))).toEqual(["masked_by_record"]);
    expect(maskReasonKeys(summaryOf({}))).toEqual([]);
  });
});
