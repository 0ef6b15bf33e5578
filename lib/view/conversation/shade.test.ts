import { describe, expect, it } from "vitest";
import { shadeSpans, shadeWindow } from "./shade";

describe("conversation span shading", () => {
  const span = (text: string, mask: 0 | 1, start: number, end = start + 1) => ({
    text,
    mask,
    start,
    end,
  });
  // Log probs from position 10: ln 0.95, ln 0.35, none, ln 0.005 (the token view's bands).
  const window = {
    offset: 10,
    tokens: { log_prob: [Math.log(0.95), Math.log(0.35), null, Math.log(0.005)] },
  };

  it("shades generated tokens by their own log prob and leaves re-fed text unshaded", () => {
    const out = shadeSpans(
      [span("Hi", 1, 10), span(" there", 1, 11), span("\n", 0, 12), span("!", 1, 13)],
      window,
    );
    expect(out.map((s) => [s.text, s.mask, s.bin])).toEqual([
      ["Hi", 1, 0],
      [" there", 1, 3],
      ["\n", 0, -1],
      ["!", 1, 5],
    ]);
    expect(out[0]!.logProb).toBeCloseTo(Math.log(0.95));
  });

  it("gives no shade outside the window, to a span of several tokens, or without a window", () => {
    expect(shadeSpans([span("x", 1, 20)], window)[0]!.bin).toBe(-1);
    expect(shadeSpans([span("xy", 1, 10, 12)], window)[0]!.bin).toBe(-1);
    expect(shadeSpans([span("x", 1, 10)], null)[0]).toMatchObject({ bin: -1, mask: 1 });
  });

  it("asks for the message's range, at most the route's limit", () => {
    expect(shadeWindow(100, 140)).toEqual({ offset: 100, limit: 40 });
    expect(shadeWindow(0, 80_000)).toEqual({ offset: 0, limit: 5000 });
  });
});
