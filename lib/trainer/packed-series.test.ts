// The packed collector (what workers use) against the object collector (./scalar-series, written
// separately): the same points per step, the same tie rule (latest wall time, then last added).
import { describe, expect, it } from "vitest";
import { PackedCollector, unpack } from "./packed-series";
import { pointOf, SeriesCollector } from "./scalar-series";

describe("PackedCollector", () => {
  it("keeps what SeriesCollector keeps on repeated steps, tied wall times and gaps", () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const packed = new PackedCollector();
    const objects = new SeriesCollector();
    for (let i = 0; i < 20_000; i++) {
      const tag = `t${Math.floor(rand() * 5)}`;
      const step = Math.floor(rand() * 300);
      const wall = Math.floor(rand() * 4); // many ties
      const r = rand();
      const value = r < 0.05 ? NaN : r < 0.07 ? -Infinity : r < 0.08 ? Infinity : i;
      const source = `f${i % 3}`;
      packed.add(tag, source, pointOf(step, wall, value));
      objects.add(tag, source, pointOf(step, wall, value));
    }
    expect(packed.series().map(unpack)).toEqual(objects.series());
  });
});
