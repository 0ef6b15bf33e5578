import { describe, expect, it } from "vitest";
import { smoothEma } from "./smoothing";

describe("smoothEma", () => {
  it("leaves values alone at weight 0", () => {
    expect(smoothEma([1, 2, null, 4], 0)).toEqual([1, 2, null, 4]);
  });
  it("debiases the start: a constant series stays constant", () => {
    for (const v of smoothEma([3, 3, 3, 3], 0.9)) expect(v).toBeCloseTo(3, 12);
  });
  it("matches the EMA worked by hand at weight 0.5, skipping gaps", () => {
    // last: 0.5, 1.25 (0.25+1), kept over the gap, then 2.625 (0.625+2); debias 0.5, 0.75, 0.875.
    const out = smoothEma([1, 2, null, 4], 0.5);
    expect(out[0]).toBeCloseTo(1, 12);
    expect(out[1]).toBeCloseTo(1.25 / 0.75, 12);
    expect(out[2]).toBeNull();
    expect(out[3]).toBeCloseTo(2.625 / 0.875, 12);
  });
});
