import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readThemeColours, resolveColour, THEMES, type Theme } from "./palette";
import {
  CANVAS,
  GENERATED_SHADES,
  generatedShade,
  NOT_TRAINED,
  QUIET,
  REFED,
  textPairs,
  tokenSwatch,
  UNSCORED,
} from "./token-palette";

// WCAG 2.x relative luminance and contrast ratio, written here from the definition so the test does
// not trust the palette module: https://www.w3.org/TR/WCAG21/#dfn-relative-luminance
function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [n >> 16, (n >> 8) & 255, n & 255].map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

// The palette names app/globals.css properties: read both themes' values from the file.
const COLOURS = readThemeColours(
  readFileSync(path.join(process.cwd(), "app", "globals.css"), "utf8"),
);
const hex = (theme: Theme, value: string) => resolveColour(value, COLOURS[theme]);

describe("token palette", () => {
  it("computes contrast as WCAG does (reference values)", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#ffffff", "#ffffff")).toBeCloseTo(1, 5);
    expect(contrast("#767676", "#ffffff")).toBeCloseTo(4.54, 2); // the well-known AA minimum grey
    expect(contrast("#777777", "#ffffff")).toBeLessThan(4.5);
  });

  it("gives every text colour at least 4.5:1 against its own background", () => {
    const pairs = textPairs();
    // Every token background is in the list, so no shade can escape the check.
    for (const s of [REFED, UNSCORED, QUIET, NOT_TRAINED, ...GENERATED_SHADES]) {
      expect(pairs.some((p) => p.bg === s.bg && p.fg === s.fg)).toBe(true);
    }
    for (const theme of THEMES)
      for (const p of pairs) {
        const name = `${theme} ${p.name}`;
        const ok = contrast(hex(theme, p.fg), hex(theme, p.bg)) >= 4.5;
        expect({ name, ok }).toEqual({ name, ok: true });
      }
  });

  it("sets generated green farther from the canvas the more probable, by bins", () => {
    for (const theme of THEMES) {
      const canvas = hex(theme, CANVAS);
      const away = GENERATED_SHADES.map((s) => contrast(hex(theme, s.bg), canvas));
      for (let i = 1; i < away.length; i++) expect(away[i]!, theme).toBeLessThan(away[i - 1]!);
    }
    const bin = (lp: number) =>
      GENERATED_SHADES.indexOf(generatedShade(lp) as (typeof GENERATED_SHADES)[number]);
    expect(
      [
        0,
        0.3,
        Math.log(0.95),
        Math.log(0.8),
        Math.log(0.6),
        Math.log(0.4),
        Math.log(0.2),
        Math.log(0.05),
        -50,
      ].map(bin),
    ).toEqual([0, 0, 0, 1, 2, 3, 4, 5, 5]);
    expect(generatedShade(null)).toBe(UNSCORED);
    expect(tokenSwatch(0, -3, false)).toBe(REFED);
    expect(tokenSwatch(1, -3, true)).toBe(QUIET);
    // Not trained: amber whatever the probability, never one of the trained greens.
    expect(tokenSwatch(1, -0.01, false, true)).toBe(NOT_TRAINED);
    expect(tokenSwatch(1, null, false, true)).toBe(NOT_TRAINED);
    expect(GENERATED_SHADES.some((s) => s.bg === NOT_TRAINED.bg)).toBe(false);
    expect(tokenSwatch(0, -3, false, true)).toBe(REFED);
  });
});
