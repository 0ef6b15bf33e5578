import { describe, expect, it } from "vitest";
import { ALERT_FILTERS, SORT_KEYS } from "@/lib/runs/rollout-query";
import { badQueryParams } from "./use-row-pages";

describe("badQueryParams: what the rollouts route would refuse, before asking it", () => {
  it("names a bad sort with every sort key the route takes", () => {
    expect(badQueryParams("sort=bogus")).toEqual([
      { key: "sort", given: "bogus", allowed: [...SORT_KEYS], rule: expect.any(String) },
    ]);
  });

  it("lists each bad parameter once, with choices where it has them and the rule where not", () => {
    const bad = badQueryParams("verdict=masked&sort=bogus&dir=up&status=abc&alert=masked_fraction");
    expect(bad.map((b) => b.key)).toEqual(["sort", "dir", "status", "alert"]);
    expect(bad.find((b) => b.key === "dir")).toMatchObject({
      given: "up",
      allowed: ["asc", "desc"],
    });
    expect(bad.find((b) => b.key === "status")).toEqual({
      key: "status",
      given: "abc",
      allowed: null,
      rule: "status must be an HTTP status code",
    });
    expect(bad.find((b) => b.key === "alert")?.allowed).toEqual(Object.keys(ALERT_FILTERS));
    expect(bad.find((b) => b.key === "sort")?.rule).toBe(
      `sort takes one of ${SORT_KEYS.join(", ")}`,
    );
  });

  it("finds nothing wrong with a query the route takes, or an empty one", () => {
    expect(badQueryParams("")).toEqual([]);
    expect(badQueryParams("sort=reward&dir=desc&verdict=masked&status=422&step=3&q=x")).toEqual([]);
    expect(badQueryParams("sort=")).toEqual([]);
  });
});
