// The pure URL helpers of previous / next; that their keys are the table query's is checked in
// lib/runs/neighbors.test.ts (lib/view does not import lib/runs).
import { describe, expect, it } from "vitest";
import { inspectorHref, neighborHref, neighborsUrl, tableHref, tableQueryOf } from "./rollout-nav";

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

  it("previous / next keep the table query, the profile and the tab, and drop the rollout's own state", () => {
    const inspector = new URLSearchParams(
      "sort=bytes&step=1&profile=gym-v1&tab=chains&call=abc&chain=main&pos=120&low=-2",
    );
    expect(neighborHref("r", "1-2", inspector)).toBe(
      "/runs/r/rollouts/1-2?sort=bytes&step=1&profile=gym-v1&tab=chains",
    );
    expect(neighborsUrl("r", "1-2", inspector)).toBe(
      "/api/runs/r/rollouts/1-2/neighbors?sort=bytes&step=1",
    );
    expect(tableHref("r", inspector)).toBe("/runs/r?sort=bytes&step=1");
    expect(tableQueryOf(new URLSearchParams("profile=seed")).toString()).toBe("");
  });
});
