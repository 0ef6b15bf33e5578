import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readThemeColours, resolveColour, THEMES, type Theme } from "./palette";
import { MISMATCH_SHADES, mismatchShade, NO_MISMATCH } from "./mismatch-palette";

// WCAG 2.x contrast, written here from the definition (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio).
function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [n >> 16, (n >> 8) & 255, n & 255].map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

// The palette names app/globals.css properties: read both themes' values from the file.
const COLOURS = readThemeColours(
  readFileSync(path.join(process.cwd(), "app", "globals.css"), "utf8"),
);
const hex = (theme: Theme, value: string) => resolveColour(value, COLOURS[theme]);

describe("mismatch palette", () => {
  it("every text colour meets AA (4.5:1) on its background", () => {
    for (const theme of THEMES)
      for (const s of [...MISMATCH_SHADES, NO_MISMATCH])
        expect(
          contrast(hex(theme, s.bg), hex(theme, s.fg)),
          `${theme} ${s.bg}`,
        ).toBeGreaterThanOrEqual(4.5);
  });

  it("bins by exp(|gen − prev|): each edge opens its own shade", () => {
    const labels = [1, 1.0099, 1.01, 1.099, 1.1, 1.5, 2.99, 3, 500].map(
      (e) => MISMATCH_SHADES.find((s) => s.bg === mismatchShade(e).bg)!.label,
    );
    expect(labels).toEqual([
      "< 1.01",
      "< 1.01",
      "1.01–1.1",
      "1.01–1.1",
      "1.1–1.5",
      "1.5–3",
      "1.5–3",
      "≥ 3",
      "≥ 3",
    ]);
    expect(mismatchShade(null)).toBe(NO_MISMATCH);
    expect(mismatchShade(NaN)).toBe(NO_MISMATCH);
  });
});
