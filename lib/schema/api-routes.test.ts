// The route table's URLs: parameters encoded, the fixed query first and the caller's after it
// (replacing a key, keeping a repeated one), absent values left out.
import { describe, expect, it } from "vitest";
import { API, apiUrl, DOWNLOADS, withQuery } from "./api-routes";

describe("apiUrl", () => {
  it("encodes path parameters", () => {
    expect(apiUrl(API.callDetail, { run: "a b", rollout: "1/2", call: "c?d" })).toBe(
      "/api/runs/a%20b/rollouts/1%2F2/calls/c%3Fd",
    );
    expect(DOWNLOADS.export.path({ run: "r" })).toBe("/api/runs/r/export");
  });

  it("puts the fixed query first and the caller's after it", () => {
    expect(
      apiUrl(API.rolloutFacts, { run: "r", rollout: "0-1" }, { profile: "seed", v: "9" }),
    ).toBe("/api/runs/r/rollouts/0-1?facts=1&profile=seed&v=9");
    expect(apiUrl(API.tokensOpening, { run: "r", rollout: "x" }, { segments: "0" })).toBe(
      "/api/runs/r/rollouts/x/tokens?segments=0",
    );
  });

  it("leaves absent values out and keeps a repeated key", () => {
    expect(apiUrl(API.progress, { run: "r", rollout: "x" }, { profile: null })).toBe(
      "/api/runs/r/rollouts/x/progress",
    );
    const q = new URLSearchParams([
      ["columns", "a,b"],
      ["id", "1"],
      ["id", "2"],
    ]);
    expect(apiUrl(API.recordFields, { run: "r" }, q)).toBe(
      "/api/runs/r/record-fields?columns=a%2Cb&id=1&id=2",
    );
  });

  it("a later part replaces an earlier one's key", () => {
    expect(withQuery("/p", new URLSearchParams("a=1&b=2&b=3"), { b: 4, c: "" })).toBe("/p?a=1&b=4");
    expect(withQuery("/p", {})).toBe("/p");
  });
});
