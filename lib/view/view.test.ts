import { describe, expect, it } from "vitest";
import { callView } from "@/lib/testing/rollout-view";
import { mainRule, otherProfileSummary, outputItemText } from "./inspector-words";
import {
  messageOf,
  positionOf,
  sequenceOf,
  shadeOf,
  tabOf,
  TOKEN_WINDOW,
  windowStart,
} from "./inspector-url";

describe("inspector words", () => {
  const seed = {
    profile: "seed" as const,
    mask_sample: false,
    mask_reasons: [],
    error: null,
    main_calls: ["a", "b"],
    roots: 1,
    side_calls: 0,
  };

  it("says the other profile decides the same, or each way it differs", () => {
    expect(otherProfileSummary(seed, { ...seed, profile: "gym-v1" })).toEqual({
      differs: false,
      summary: "gym-v1 decides the same",
    });
    const gym = {
      profile: "gym-v1" as const,
      mask_sample: true,
      mask_reasons: ["multiple_roots" as const],
      error: "RuntimeError: several roots",
      main_calls: ["a"],
      roots: 2,
      side_calls: 0,
    };
    expect(otherProfileSummary(seed, gym)).toEqual({
      differs: true,
      summary:
        "gym-v1 would mask (several roots); reports RuntimeError: several roots; would pick a different main chain (1 call)",
    });
    expect(otherProfileSummary(gym, { ...seed, main_calls: [] }).summary).toBe(
      "seed would train on it; would deliver no chain",
    );
  });

  it("names the main-chain rule of each profile and shows output items as text", () => {
    expect(mainRule("seed").rule).toBe("generated_mass");
    expect(mainRule("gym-v1").text).toMatch(/^the chain whose root call was created first/);
    expect(
      outputItemText({ type: "function_call", name: "bash", arguments: '{"cmd":"ls"}' }),
    ).toEqual({ type: "function_call", text: 'bash({"cmd":"ls"})' });
    expect(
      outputItemText({ type: "message", content: [{ text: "hi" }, { x: 1 }, { text: "there" }] })
        .text,
    ).toBe("hi\n\nthere");
    expect(outputItemText({ summary: 3 })).toEqual({ type: "item", text: '{\n  "summary": 3\n}' });
  });
});

describe("inspector URL state", () => {
  const withChain = { chains: [{ chain_id: "main" }], calls: [] };
  const noChain = { chains: [], calls: [callView({ model_call_id: "x" })] };

  it("reads the tab, the sequence, the position and the window holding it", () => {
    expect([tabOf("chains"), tabOf("nope"), tabOf(null)]).toEqual(["chains", "tokens", "tokens"]);
    expect(tabOf("conversation")).toBe("conversation");
    expect(sequenceOf(withChain, null)).toBe("main");
    expect(sequenceOf(withChain, "branch-0")).toBe("branch-0");
    expect(sequenceOf(noChain, null)).toBe("call:x");
    expect([positionOf("42"), positionOf("-1"), positionOf("4e3"), positionOf(null)]).toEqual([
      42,
      null,
      null,
      null,
    ]);
    const w = TOKEN_WINDOW;
    expect([
      windowStart(null),
      windowStart(w - 1),
      windowStart(w),
      windowStart(2 * w + 321),
    ]).toEqual([0, 0, w, 2 * w]);
  });

  it("reads the selected message and the shading switch", () => {
    expect([messageOf("3"), messageOf("x"), messageOf(null)]).toEqual([3, null, null]);
    expect([shadeOf("1"), shadeOf("0"), shadeOf("true"), shadeOf(null)]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});
