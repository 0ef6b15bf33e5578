// The packed collector (what workers use) against the object collector (./scalar-series, written
// separately): the same points per step, the same tie rule (latest wall time, then last added).
import { describe, expect, it } from "vitest";
import {
  factsOf,
  nonFiniteLiteral,
  PackedCollector,
  seriesFacts,
  unpack,
  lazySeries,
} from "./packed-series";
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

describe("a series' facts, worked out on the packed form", () => {
  // 2,500 steps: a NaN every 97th, an Infinity every 389th, the rest finite.
  const N = 2_500;
  const value = (i: number) => (i % 97 === 5 ? NaN : i % 389 === 7 ? Infinity : Math.sin(i) + 1);
  const c = new PackedCollector();
  for (let i = 0; i < N; i++) c.add("reward", "f", pointOf(i * 2, 1_700_000_000 + i, value(i)));
  const packed = c.series()[0]!;

  it("equals what a walk of the points says: mean of the finite, chart stride, gaps", () => {
    const finite = Array.from({ length: N }, (_, i) => value(i)).filter(Number.isFinite);
    const stride = Math.ceil(N / 1000); // CURVE_MAX_POINTS
    const chart = [];
    for (let i = 0; i < N; i++)
      if (i % stride === 0 || !Number.isFinite(value(i)))
        chart.push({ step: i * 2, value: Number.isFinite(value(i)) ? value(i) : null });
    const f = factsOf(packed);
    expect(f.hasValue).toBe(true);
    expect(f.finiteMean).toBeCloseTo(finite.reduce((a, b) => a + b, 0) / finite.length, 12);
    expect(f.chart).toEqual(chart);
    const gaps = Array.from({ length: N }, (_, i) => i).filter((i) => !Number.isFinite(value(i)));
    expect([...f.gapSteps]).toEqual(gaps.map((i) => i * 2));
    expect([...f.gapCodes].map(nonFiniteLiteral)).toEqual(
      gaps.map((i) => (Number.isNaN(value(i)) ? "NaN" : "Infinity")),
    );
  });

  it("ride with a lazy series, whose points are made on first read; an object series alike", () => {
    const lazy = lazySeries({ ...packed, facts: factsOf(packed) });
    expect(seriesFacts(lazy)).toEqual(factsOf(packed));
    const points = lazy.points;
    expect(points).toEqual(unpack(packed).points);
    expect(lazy.points).toBe(points); // made once
    expect(seriesFacts(unpack(packed))).toEqual(factsOf(packed)); // without facts: worked out
    expect(seriesFacts(lazySeries(packed))).toEqual(factsOf(packed));
  });
});
