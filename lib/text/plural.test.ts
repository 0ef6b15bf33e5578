import { describe, expect, it } from "vitest";
import { counted, plural } from "./plural";

describe("plural", () => {
  it("is singular for exactly one", () => {
    expect([plural(0, "call"), plural(1, "call"), plural(2, "token")]).toEqual([
      "0 calls",
      "1 call",
      "2 tokens",
    ]);
    expect(plural(1, "entry", "entries")).toBe("1 entry");
    expect(plural(3, "entry", "entries")).toBe("3 entries");
    expect(plural(1200, "rollout", undefined, "1,200")).toBe("1,200 rollouts");
  });

  it("agrees the verb", () => {
    expect(counted(1, "rollout", "has", "have")).toBe("1 rollout has");
    expect(counted(4, "rollout", "has", "have")).toBe("4 rollouts have");
  });
});
