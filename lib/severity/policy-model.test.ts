// Policy model and main-chain model: counts written by hand; code-point order as Python sorts
// (gym-v1 case non-bmp-call-ids orders "c-\uffff" before "c-😀").
import { describe, expect, it } from "vitest";
import { compareCodePoints } from "@/lib/builder/code-points";
import { mainChainModel, runPolicyModel } from "./policy-model";

describe("runPolicyModel", () => {
  it("is the model most rollouts train on", () => {
    expect(runPolicyModel(["a", "b", "b", null, "c"])).toBe("b");
  });
  it("breaks ties the same way whatever the order", () => {
    expect(runPolicyModel(["m-2", "m-1"])).toBe("m-1");
    expect(runPolicyModel(["m-1", "m-2"])).toBe("m-1");
    expect(runPolicyModel(["c-😀", "c-\uffff"])).toBe("c-\uffff");
  });
  it("is null when no rollout names a model", () => {
    expect(runPolicyModel([])).toBeNull();
    expect(runPolicyModel([null, null, ""])).toBeNull();
  });
});

describe("mainChainModel", () => {
  it("weighs calls by generated tokens and prefers the requested model", () => {
    const calls = [
      { requested_model: "policy", model: "served", generated: 10 },
      { requested_model: "summariser", model: "served", generated: 6 },
      { requested_model: "summariser", model: "served", generated: 6 },
    ];
    expect(mainChainModel(calls)).toBe("summariser");
    expect(mainChainModel([{ requested_model: null, model: "served", generated: 1 }])).toBe(
      "served",
    );
    expect(mainChainModel([])).toBeNull();
  });
});

describe("compareCodePoints", () => {
  it("orders by code point, not UTF-16 unit", () => {
    expect(compareCodePoints("c-\uffff", "c-😀")).toBeLessThan(0);
    expect(compareCodePoints("ab", "a")).toBeGreaterThan(0);
    expect(compareCodePoints("x", "x")).toBe(0);
  });
});
