import { describe, expect, it } from "vitest";
import { expertLoad, routeWords } from "./expert-load";

describe("expertLoad", () => {
  it("counts each layer's experts over the routed positions", () => {
    const load = expertLoad(
      [
        [
          [0, 2],
          [1, 2],
        ],
        null,
        [
          [2, 3],
          [1, 0],
        ],
      ],
      2,
    );
    expect([load.layers, load.experts, load.routed, load.max]).toEqual([2, 4, 2, 2]);
    expect(Array.from(load.counts)).toEqual([1, 0, 2, 1, 1, 2, 1, 0]);
  });

  it("is empty without routes", () => {
    const load = expertLoad([null, null], 4);
    expect([load.experts, load.routed, load.max, load.counts.length]).toEqual([0, 0, 0, 0]);
  });

  it("words a route per layer", () => {
    expect(
      routeWords([
        [3, 5],
        [0, 7],
      ]),
    ).toBe("L0 3 5 · L1 0 7");
  });
});
