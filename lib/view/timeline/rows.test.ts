import { describe, expect, it } from "vitest";
import { call, depths, failed, ids, linear } from "@/lib/testing/timeline-calls";
import { buildTimeline } from "./rows";
import { moveInTimeline, timelineCursor, visibleRows } from "./keys";
import { timelinePositions } from "./positions";

describe("call timeline depth", () => {
  it("keeps a 1,100-call linear chain at depth 0, in order", () => {
    const calls = linear(1100);
    const { rows } = buildTimeline(calls, []);
    expect(rows).toHaveLength(1100);
    const flat = rows.filter((r) => r.depth === 0 && r.branch_point === null && !r.branches);
    expect(flat).toHaveLength(1100);
    expect(ids(rows)).toEqual(calls.map((c) => c.model_call_id));
  });

  it("indents a branch by one and keeps the branch flat after it", () => {
    // main: a → b → c; branch-1 leaves b: d → e; branch-2 leaves d: f.
    const calls = [
      call("a", null, { created_at: 1, chains: ["main", "branch-1", "branch-2"] }),
      call("b", "a", { created_at: 2, chains: ["main", "branch-1", "branch-2"] }),
      call("c", "b", { created_at: 3 }),
      call("d", "b", { created_at: 4, role: "branch", chains: ["branch-1", "branch-2"] }),
      call("e", "d", { created_at: 5, role: "branch", chains: ["branch-1"] }),
      call("f", "d", { created_at: 6, role: "branch", chains: ["branch-2"] }),
    ];
    const { rows } = buildTimeline(calls, []);
    expect(depths(rows)).toEqual(["a@0", "b@0", "c@0", "d@1", "e@1", "f@2"]);
    const points = ["null/0", "null/1", "null/0", "b/1", "b/0", "d/0"];
    expect(rows.map((r) => `${r.branch_point}/${r.branches}`)).toEqual(points);
  });

  it("keeps main at depth 0 even when the branch came first in time", () => {
    const calls = [
      call("a", null, { created_at: 1, chains: ["main", "branch-1"] }),
      call("x", "a", { created_at: 2, role: "branch", chains: ["branch-1"] }),
      call("y", "a", { created_at: 3 }),
    ];
    expect(depths(buildTimeline(calls, []).rows)).toEqual(["a@0", "x@1", "y@0"]);
  });

  it("keeps side calls and other roots at depth 0", () => {
    const calls = [
      call("a", null, { created_at: 1 }),
      call("s", null, { created_at: 2, role: "side_call", chains: [] }),
      call("b", "a", { created_at: 3 }),
    ];
    expect(depths(buildTimeline(calls, []).rows)).toEqual(["a@0", "s@0", "b@0"]);
  });

  it("builds a 1,100-deep chain with a branch every 10 calls quickly", () => {
    const calls = linear(1100);
    for (let i = 0; i < 1100; i += 10) {
      calls.push(call(`b${i}`, `c${i}`, { created_at: i + 1.5, role: "branch", chains: ["x"] }));
    }
    const t0 = performance.now();
    const { rows } = buildTimeline(calls, []);
    const shown = visibleRows(rows, new Set(rows.map((r) => r.call_id)));
    const ms = performance.now() - t0;
    expect(rows).toHaveLength(1210);
    expect(rows.filter((r) => r.depth === 1)).toHaveLength(110);
    expect(shown).toHaveLength(1100);
    expect(ms).toBeLessThan(1000);
  });
});

describe("call timeline rows for calls without a token entry", () => {
  const calls = linear(3);

  it("places failed calls after the call they followed, and before any call at the top", () => {
    const list = [failed("f0", null), failed("f1", "c1"), failed("f2", "c1"), failed("fx", "gone")];
    const { rows } = buildTimeline(calls, list);
    expect(ids(rows)).toEqual(["f0", "fx", "c0", "c1", "f1", "f2", "c2"]);
    expect(rows[4]).toMatchObject({
      role: "failed",
      status: "HTTP 422 extra_forbidden",
      status_ok: false,
      reason: "Extra inputs are not permitted at messages[2].reasoning (no token entry)",
    });
  });

  it("places dangling intents where they happened and merges an intent that also failed", () => {
    const intents = [
      { model_call_id: "i1", after_call: "c0" },
      { model_call_id: "f1", after_call: "c1" },
      { model_call_id: "c2", after_call: "c1" }, // has an entry: not dangling, no extra row
    ];
    const { rows } = buildTimeline(calls, [failed("f1", "c1")], intents);
    expect(ids(rows)).toEqual(["c0", "i1", "c1", "f1", "c2"]);
    const intent = { role: "intent", label: "dangling intent", status: "no response" };
    expect(rows[1]).toMatchObject(intent);
    expect(rows[3]).toMatchObject({ role: "failed", label: "failed · dangling intent" });
  });

  it("numbers captured and failed calls as the rows show them; intents get no number", () => {
    const list = [failed("f0", null), failed("f1", "c1"), failed("f2", "c1"), failed("fx", "gone")];
    const numbers = timelinePositions(calls, list);
    expect(Object.fromEntries(numbers)).toEqual({
      f0: 1,
      fx: 2,
      c0: 3,
      c1: 4,
      f1: 5,
      f2: 6,
      c2: 7,
    });
    const intents = [{ model_call_id: "i1", after_call: "c0" }];
    const rows = buildTimeline(calls, list, intents).rows.filter((r) => r.role !== "intent");
    expect(rows.map((r) => numbers.get(r.call_id))).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("gives failed rows the depth and branch of the call they followed", () => {
    const d = call("d", "c1", { created_at: 4, role: "branch", chains: ["branch-1"] });
    const { rows } = buildTimeline([...calls, d], [failed("f", "d")]);
    expect(depths(rows)).toEqual(["c0@0", "c1@0", "c2@0", "d@1", "f@1"]);
    expect(rows[4]?.branch_point).toBe("c1");
  });
});

describe("call timeline collapsing and keys", () => {
  // main a → b → c; a branch leaves a: x → y, another leaves x: z. A failed call follows y.
  const calls = [
    call("a", null, { created_at: 1, chains: ["main", "branch-1", "branch-2"] }),
    call("x", "a", { created_at: 2, role: "branch", chains: ["branch-1", "branch-2"] }),
    call("b", "a", { created_at: 3 }),
    call("y", "x", { created_at: 4, role: "branch", chains: ["branch-1"] }),
    call("z", "x", { created_at: 5, role: "branch", chains: ["branch-2"] }),
    call("c", "b", { created_at: 6 }),
  ];
  const { rows } = buildTimeline(calls, [failed("f", "y")]);

  it("hides a branch's rows, and the branches inside it, when its branch point collapses", () => {
    expect(ids(rows)).toEqual(["a", "x", "b", "y", "f", "z", "c"]);
    expect(ids(visibleRows(rows, new Set(["x"])))).toEqual(["a", "x", "b", "y", "f", "c"]);
    expect(ids(visibleRows(rows, new Set(["a"])))).toEqual(["a", "b", "c"]);
    expect(ids(visibleRows(rows, new Set(["c"])))).toEqual(ids(rows));
  });

  it("moves with ↑↓ Home End, collapses with ← and expands with →", () => {
    const none = new Set<string>();
    expect(moveInTimeline(rows, 0, "ArrowDown", none)).toEqual({ row: 1, toggle: null });
    expect(moveInTimeline(rows, 0, "ArrowUp", none)).toEqual({ row: 0, toggle: null });
    expect(moveInTimeline(rows, 2, "End", none)).toEqual({ row: 6, toggle: null });
    expect(moveInTimeline(rows, 6, "ArrowDown", none)).toEqual({ row: 6, toggle: null });
    expect(moveInTimeline(rows, 5, "Home", none)).toEqual({ row: 0, toggle: null });
    expect(moveInTimeline(rows, 1, "ArrowLeft", none)).toEqual({ row: 1, toggle: "x" });
    expect(moveInTimeline(rows, 5, "ArrowLeft", none)).toEqual({ row: 1, toggle: null }); // z → x
    expect(moveInTimeline(rows, 4, "ArrowLeft", none)).toEqual({ row: 0, toggle: null }); // f → a
    expect(moveInTimeline(rows, 2, "ArrowLeft", none)).toEqual({ row: 2, toggle: null }); // b: main
    const shut = new Set(["x"]);
    const shown = visibleRows(rows, shut);
    expect(moveInTimeline(shown, 1, "ArrowRight", shut)).toEqual({ row: 1, toggle: "x" });
    expect(moveInTimeline(rows, 1, "ArrowRight", none)).toEqual({ row: 2, toggle: null });
    expect(moveInTimeline(rows, 2, "ArrowRight", none)).toEqual({ row: 2, toggle: null });
  });
});

describe("call timeline keys with nothing selected", () => {
  const rows = buildTimeline(linear(4), []).rows;
  const none = new Set<string>();

  it("lands on the first row for ↓ ↑ Home → ← and on the last for End", () => {
    for (const key of ["ArrowDown", "ArrowUp", "Home", "ArrowRight", "ArrowLeft"] as const)
      expect(moveInTimeline(rows, -1, key, none), key).toEqual({ row: 0, toggle: null });
    expect(moveInTimeline(rows, -1, "End", none)).toEqual({ row: 3, toggle: null });
  });

  it("stays put at either edge and on an empty timeline", () => {
    expect(moveInTimeline(rows, 0, "ArrowUp", none)).toEqual({ row: 0, toggle: null });
    expect(moveInTimeline(rows, 3, "ArrowDown", none)).toEqual({ row: 3, toggle: null });
    expect(moveInTimeline(rows, 3, "End", none)).toEqual({ row: 3, toggle: null });
    expect(moveInTimeline([], -1, "ArrowDown", none).row).toBe(0);
  });

  it("puts the cursor on the selected row, a folded call's branch point, or nowhere", () => {
    const calls = [
      call("a", null, { created_at: 1, chains: ["main", "branch-1"] }),
      call("x", "a", { created_at: 2, role: "branch", chains: ["branch-1"] }),
      call("y", "x", { created_at: 3, role: "branch", chains: ["branch-1"] }),
      call("b", "a", { created_at: 4 }),
    ];
    const all = buildTimeline(calls, []).rows;
    const shown = visibleRows(all, new Set(["a"]));
    expect(ids(shown)).toEqual(["a", "b"]);
    const cursor = timelineCursor(shown, all);
    expect([cursor("b"), cursor("y"), cursor(null), cursor("gone")]).toEqual([1, 0, -1, -1]);
  });
});
