import { describe, expect, it } from "vitest";
import { callView, failedCall } from "@/lib/testing/rollout-view";
import { indexTree, moveSelection, treeRows } from "./call-tree";
import { mainRule, otherProfileSummary, outputItemText } from "./inspector-words";
import { positionOf, sequenceOf, tabOf, TOKEN_WINDOW, windowStart } from "./inspector-url";

const call = (id: string, parent: string | null, created_at: number) => callView({ model_call_id: id, parent_call_id: parent, created_at });
const failed = (id: string, after: string | null) => failedCall({ model_call_id: id, after_call: after });

describe("call tree rows", () => {
  const calls = [call("a", null, 1), call("b", "a", 2), call("c", "b", 3), call("d", "a", 4), call("side", null, 0.5)];
  const index = indexTree(calls, [failed("f", "b"), failed("g", null)]);

  it("nests children, places failed calls after the call they followed, and collapses", () => {
    expect(treeRows(index, new Set()).map((r) => `${r.id}@${r.depth}`)).toEqual(["failed:g@0", "a@0", "b@1", "failed:f@2", "c@2", "d@1", "side@0"]);
    expect(treeRows(index, new Set(["b"])).map((r) => r.id)).toEqual(["failed:g", "a", "b", "d", "side"]);
  });

  it("moves with the keyboard: down, up, collapse, expand and to the parent", () => {
    const rows = treeRows(index, new Set());
    expect(moveSelection(rows, 1, "ArrowDown", index).row).toBe(2);
    expect(moveSelection(rows, 1, "ArrowUp", index).row).toBe(0);
    expect(moveSelection(rows, 2, "ArrowLeft", index)).toEqual({ row: 2, toggle: "b" }); // b is expanded
    expect(moveSelection(rows, 4, "ArrowLeft", index)).toEqual({ row: 2, toggle: null }); // c -> parent b
    const collapsed = treeRows(index, new Set(["b"]));
    expect(moveSelection(collapsed, 2, "ArrowRight", index)).toEqual({ row: 2, toggle: "b" });
    expect(moveSelection(rows, 0, "End", index).row).toBe(rows.length - 1);
  });

  it("handles a 5,000-deep chain without recursion", () => {
    const deep = Array.from({ length: 5000 }, (_, i) => call(`n${i}`, i ? `n${i - 1}` : null, i));
    const rows = treeRows(indexTree(deep, []), new Set());
    expect(rows).toHaveLength(5000);
    expect(rows[4999]!.depth).toBe(4999);
  });
});

describe("inspector words", () => {
  const seed = { profile: "seed" as const, mask_sample: false, mask_reasons: [], error: null, main_calls: ["a", "b"] };

  it("says the other profile decides the same, or each way it differs", () => {
    expect(otherProfileSummary(seed, { ...seed, profile: "gym-v1" })).toEqual({ differs: false, summary: "gym-v1 decides the same" });
    const gym = { profile: "gym-v1" as const, mask_sample: true, mask_reasons: ["multiple_roots" as const], error: "RuntimeError: several roots", main_calls: ["a"] };
    expect(otherProfileSummary(seed, gym)).toEqual({
      differs: true,
      summary: "gym-v1 would mask (several roots); reports RuntimeError: several roots; would pick a different main chain (1 call)",
    });
    expect(otherProfileSummary(gym, { ...seed, main_calls: [] }).summary).toBe("seed would train on it; would deliver no chain");
  });

  it("names the main-chain rule of each profile and shows output items as text", () => {
    expect(mainRule("seed").rule).toBe("generated_mass");
    expect(mainRule("gym-v1").text).toMatch(/^the chain whose root call was created first/);
    expect(outputItemText({ type: "function_call", name: "bash", arguments: '{"cmd":"ls"}' })).toEqual({ type: "function_call", text: 'bash({"cmd":"ls"})' });
    expect(outputItemText({ type: "message", content: [{ text: "hi" }, { x: 1 }, { text: "there" }] }).text).toBe("hi\n\nthere");
    expect(outputItemText({ summary: 3 })).toEqual({ type: "item", text: '{\n  "summary": 3\n}' });
  });
});

describe("inspector URL state", () => {
  const withChain = { chains: [{ chain_id: "main" }], calls: [] };
  const noChain = { chains: [], calls: [callView({ model_call_id: "x" })] };

  it("reads the tab, the sequence, the position and the window holding it", () => {
    expect([tabOf("chains"), tabOf("nope"), tabOf(null)]).toEqual(["chains", "tokens", "tokens"]);
    expect(sequenceOf(withChain, null)).toBe("main");
    expect(sequenceOf(withChain, "branch-0")).toBe("branch-0");
    expect(sequenceOf(noChain, null)).toBe("call:x");
    expect([positionOf("42"), positionOf("-1"), positionOf("4e3"), positionOf(null)]).toEqual([42, null, null, null]);
    expect([windowStart(null), windowStart(1999), windowStart(2000), windowStart(4321)]).toEqual([0, 0, TOKEN_WINDOW, 2 * TOKEN_WINDOW]);
  });
});
