import { describe, expect, it } from "vitest";
import type { CallView, FailedCall } from "@/lib/inspect/rollout-model";
import { indexTree, moveSelection, treeRows } from "./call-tree";
import { generatedAlpha, rowOfCall, rowOfPosition, tokenRows, visibleText } from "./token-rows";

const call = (id: string, parent: string | null, created_at: number): CallView =>
  ({ model_call_id: id, parent_call_id: parent, created_at } as unknown as CallView);
const failed = (id: string, after: string | null): FailedCall => ({ model_call_id: id, after_call: after, started_at: 0, status_code: 422, error_category: "client_error", latency_ms: 1, error: "x" });

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

describe("token rows", () => {
  const segments = [
    { call: "a", kind: "prompt" as const, start: 0, length: 50 },
    { call: "a", kind: "generated" as const, start: 50, length: 7 },
    { call: "b", kind: "interstitial" as const, start: 57, length: 20 },
  ];
  const rows = tokenRows(segments, 16);

  it("puts a header before each segment and splits tokens into fixed rows", () => {
    expect(rows.map((r) => (r.kind === "header" ? "H" : `${r.start}+${r.count}`))).toEqual(["H", "0+16", "16+16", "32+16", "48+2", "H", "50+7", "H", "57+16", "73+4"]);
  });

  it("finds the row of any position and of a call", () => {
    for (let pos = 0; pos < 77; pos++) {
      const r = rows[rowOfPosition(rows, pos)]!;
      expect(r.kind === "tokens" && pos >= r.start && pos < r.start + r.count).toBe(true);
    }
    expect(rowOfPosition(rows, 77)).toBe(-1);
    expect(rowOfPosition(rows, -1)).toBe(-1);
    expect(rowOfCall(rows, segments, "b")).toBe(7);
  });

  it("shades by probability and shows whitespace", () => {
    expect(generatedAlpha(0)).toBe(1);
    expect(generatedAlpha(-20)).toBe(0.25);
    expect(generatedAlpha(Math.log(0.5))).toBe(0.63);
    expect(visibleText(" a\n\tb\u0001")).toBe("·a↵⇥b\\x01");
  });
});
