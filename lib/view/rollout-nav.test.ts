// The pure URL helpers of previous / next; that their keys are the table query's is checked in
// lib/runs/neighbors.test.ts (lib/view does not import lib/runs).
import { describe, expect, it } from "vitest";
import {
  alertTableHref,
  inspectorHref,
  neighborHref,
  neighborsUrl,
  reasonOptions,
  tableHref,
  tableQueryOf,
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
