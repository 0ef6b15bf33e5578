import { describe, expect, it } from "vitest";
import { ALERT_FILTERS, SORT_KEYS } from "@/lib/index/query";
import { badQueryParams, newerPages, pagesIn } from "./use-row-pages";

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

describe("refreshing the table's pages", () => {
  const page = (all: number) => ({
    total: all,
    all,
    offset: 0,
    rollouts: [],
    progress: {
      done: all,
      total: 10_000,
      running: true,
      error: null,
      last_ms: null,
      workers: 0,
      in_workers: 0,
      from_records: 0,
      replacing: 0,
      records_read: null,
    },
    policy_model: null,
    text_search: { tokenizer: null, indexed: 0, unavailable: null },
  });
  const loaded = (sent: string, version: number, all: number) => ({
    sent,
    version,
    first: page(all),
    pages: new Map([[0, page(all)]]),
  });

  it("fetches the first page with the pages in view", () => {
    expect(pagesIn(0, 0)).toEqual([0]);
    expect(pagesIn(0, 45)).toEqual([0]);
    expect(pagesIn(390, 430)).toEqual([0, 1, 2]);
    expect(pagesIn(400, 401)).toEqual([0, 2]);
  });

  it("never lets an older version's answer replace a newer one of the same query", () => {
    const v3 = loaded("", 3, 900);
    expect(newerPages(v3, loaded("", 2, 600))).toBe(v3);
    const v4 = loaded("", 4, 1200);
    expect(newerPages(v3, v4)).toBe(v4);
    // Another query's answer is always taken: its rows are not comparable.
    const sorted = loaded("sort=reward", 1, 1200);
    expect(newerPages(v3, sorted)).toBe(sorted);
    expect(newerPages(null, v3)).toBe(v3);
  });
});
