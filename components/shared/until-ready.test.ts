import { describe, expect, it } from "vitest";
import { untilReady } from "./until-ready";

describe("untilReady", () => {
  it("holds calls until open, then makes them in order, and later ones at once", () => {
    const made: string[] = [];
    const gate = untilReady((s: string) => made.push(s));
    gate.call("a");
    gate.call("b");
    expect(made).toEqual([]);
    expect(gate.isOpen()).toBe(false);
    gate.open();
    expect(made).toEqual(["a", "b"]);
    expect(gate.isOpen()).toBe(true);
    gate.call("c");
    gate.open();
    expect(made).toEqual(["a", "b", "c"]);
  });

  it("tells its subscribers once when it opens, not those that left", () => {
    const gate = untilReady(() => {});
    const told: string[] = [];
    gate.subscribe(() => told.push("stays"));
    const leave = gate.subscribe(() => told.push("left"));
    leave();
    gate.open();
    gate.open();
    expect(told).toEqual(["stays"]);
  });
});
