import { describe, expect, it } from "vitest";
import { formatBytes, signed } from "./format";

describe("formatBytes", () => {
  it("names bytes below a kilobyte as bytes", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1)).toBe("1 B");
    expect(formatBytes(999)).toBe("999 B");
  });

  it("uses powers of 1000 with at most three significant figures", () => {
    expect(formatBytes(1000)).toBe("1 kB");
    expect(formatBytes(1536)).toBe("1.5 kB");
    expect(formatBytes(45_250)).toBe("45.3 kB");
    expect(formatBytes(321_896)).toBe("322 kB");
    // The run table's Size column cut "321896.1 kB" (bytes / 1024) to "321896.…" for this rollout.
    expect(formatBytes(329_621_606)).toBe("330 MB");
    expect(formatBytes(1_540_000)).toBe("1.5 MB");
    expect(formatBytes(330_000_000)).toBe("330 MB");
    expect(formatBytes(2_000_000_000)).toBe("2 GB");
    expect(formatBytes(7.25e12)).toBe("7.3 TB");
  });

  it("never shows 1000 of a unit: rounding up moves to the next", () => {
    expect(formatBytes(999_600)).toBe("1 MB");
    expect(formatBytes(99_960)).toBe("100 kB");
  });

  it("a count that is not one is a dash, not NaN", () => {
    expect(formatBytes(Number.NaN)).toBe("—");
    expect(formatBytes(-1)).toBe("—");
  });
});

describe("signed", () => {
  it("writes a difference's sign, a minus sign rather than a hyphen", () => {
    expect(signed(0.0061)).toBe("+0.006");
    expect(signed(-0.007)).toBe("\u22120.007");
    expect(signed(1.5, 1)).toBe("+1.5");
  });

  it("writes a difference that rounds to zero without a sign", () => {
    expect(signed(0)).toBe("0.000");
    expect(signed(-0.0004)).toBe("0.000");
    expect(signed(0.0004)).toBe("0.000");
  });
});
