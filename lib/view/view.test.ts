import { describe, expect, it } from "vitest";
import type { CallView, FailedCall } from "@/lib/inspect/rollout-model";
import { indexTree, moveSelection, treeRows } from "./call-tree";

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
