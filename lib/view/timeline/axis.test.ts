import { describe, expect, it } from "vitest";
import { call, exchange, failed, ids, linear } from "@/lib/testing/timeline-calls";
import { buildTimeline } from "./rows";

describe("call timeline time axis", () => {
  it("scales bars to the span from the first start to the last end", () => {
    // created_at (capture time) is ignored when the exchange has its own start.
    const timed = (started_at: number, latency_ms: number) => ({
      created_at: 999,
      exchange: exchange({ started_at, latency_ms }),
    });
    const calls = [call("a", null, timed(100, 2000)), call("b", "a", timed(104, 6000))];
    const late = failed("f", "b", { started_at: 108.5, latency_ms: 500 });
    const { rows, axis } = buildTimeline(calls, [late]);
    expect(axis).toEqual({ start: 100, end: 110 });
    expect(rows[0]?.bar?.left).toBeCloseTo(0);
    expect(rows[0]?.bar?.width).toBeCloseTo(0.2);
    expect(rows[1]?.bar?.left).toBeCloseTo(0.4);
    expect(rows[1]?.bar?.width).toBeCloseTo(0.6);
    expect(rows[2]?.bar?.left).toBeCloseTo(0.85);
    expect(rows[2]?.bar?.width).toBeCloseTo(0.05);
  });

  it("falls back to created_at, and marks rows without a time at their place in order", () => {
    const calls = [
      call("a", null, { created_at: 0 }), // no time: before every timed row
      call("b", "a", { created_at: 10, exchange: exchange({ latency_ms: 4000 }) }),
      call("c", "b", { created_at: 20 }),
    ];
    const { rows, axis } = buildTimeline(calls, [failed("f", "b")]);
    expect(ids(rows)).toEqual(["a", "b", "f", "c"]);
    expect(axis).toEqual({ start: 10, end: 20 });
    expect(rows[0]?.bar).toBeNull();
    expect(rows[0]?.marker).toBe(0); // where b starts
    expect(rows[1]?.bar).toEqual({ left: 0, width: 0.4 });
    expect(rows[2]?.marker).toBeCloseTo(0.4); // where b ended
    expect(rows[3]?.bar).toEqual({ left: 1, width: 0 });
  });

  it("treats a 0 time (the format's default) as not recorded", () => {
    const f = failed("f", "a", { started_at: 0 });
    const { rows, axis } = buildTimeline([call("a", null, { created_at: 5 })], [f]);
    expect(axis).toEqual({ start: 5, end: 5 });
    expect(rows[1]?.bar).toBeNull();
    expect(rows[1]?.marker).toBe(0);
  });

  it("spreads markers by order when nothing has a time", () => {
    const { rows, axis } = buildTimeline(
      linear(3).map((c) => ({ ...c, created_at: 0 })),
      [],
    );
    expect(axis).toBeNull();
    expect(rows.map((r) => r.marker)).toEqual([0, 0.5, 1]);
  });
});
