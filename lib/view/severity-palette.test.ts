// Reference ratios from WCAG 2.x (black on white 21:1; #777 on white 4.48:1, #767676 4.54:1). The
// palette names app/globals.css properties: each check reads both themes' values from the file.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readThemeColours, resolveColour, THEMES, type Theme } from "./palette";
import {
  alertSeverityClass,
  contrastRatio,
  countBySeverity,
  PAGE_BACKGROUNDS,
  SEVERITY_CLASS,
  SEVERITY_LABEL,
  SEVERITY_ORDER,
  SEVERITY_PALETTE,
  severityCss,
  ZERO_COUNT_CLASS,
  ZERO_COUNT_COLOURS,
} from "@/lib/severity/palette";

/** Hue in degrees of a #rrggbb colour (HSL), computed here, not by the module under test. */
function hue(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [
    number,
    number,
    number,
  ];
  const max = Math.max(r, g, b),
    min = Math.min(r, g, b),
    d = max - min;
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}
const isGreen = (hex: string) => hue(hex) >= 90 && hue(hex) <= 170;

const COLOURS = readThemeColours(
  readFileSync(path.join(process.cwd(), "app", "globals.css"), "utf8"),
);
/** A palette entry (`var(--…)`) as one theme draws it. */
const hex = (theme: Theme, value: string) => resolveColour(value, COLOURS[theme]);
/** The contrast of two palette entries in one theme. */
const ratio = (theme: Theme, a: string, b: string) => contrastRatio(hex(theme, a), hex(theme, b));

describe("contrastRatio", () => {
  it("matches WCAG's reference values", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    expect(contrastRatio("#123456", "#123456")).toBe(1);
  });
});

describe("the severity palette", () => {
  it("gives every pill's text at least 4.5:1 on its background and on the pages", () => {
    for (const theme of THEMES)
      for (const s of SEVERITY_ORDER) {
        const c = SEVERITY_PALETTE[s];
        expect(ratio(theme, c.fg, c.bg), `${theme} ${s}`).toBeGreaterThanOrEqual(4.5);
        for (const page of PAGE_BACKGROUNDS)
          expect(ratio(theme, c.fg, page), `${theme} ${s}`).toBeGreaterThanOrEqual(4.5);
      }
  });

  it("gives chart marks at least 3:1 on the pages (WCAG 1.4.11)", () => {
    for (const theme of THEMES)
      for (const s of SEVERITY_ORDER)
        for (const page of PAGE_BACKGROUNDS)
          expect(
            ratio(theme, SEVERITY_PALETTE[s].chart, page),
            `${theme} ${s}`,
          ).toBeGreaterThanOrEqual(3);
  });

  it("never draws masked green, and draws trained green", () => {
    expect(SEVERITY_CLASS.masked).not.toBe(SEVERITY_CLASS.trained);
    for (const theme of THEMES) {
      const masked = SEVERITY_PALETTE.masked;
      for (const v of [masked.fg, masked.bg, masked.border, masked.chart])
        expect(isGreen(hex(theme, v)), `${theme} ${v}`).toBe(false);
      const trained = SEVERITY_PALETTE.trained;
      for (const v of [trained.fg, trained.bg, trained.chart])
        expect(isGreen(hex(theme, v)), `${theme} ${v}`).toBe(true);
    }
  });

  it("has one distinct class and label per state, pending never saying trained", () => {
    expect(new Set(Object.values(SEVERITY_CLASS)).size).toBe(4);
    expect(SEVERITY_CLASS).toEqual({
      trained: "sev-trained",
      trained_with_warnings: "sev-warn",
      masked: "sev-masked",
      pending: "sev-pending",
    });
    expect(SEVERITY_LABEL.pending).not.toMatch(/trained/i);
    expect(SEVERITY_LABEL.masked).not.toMatch(/trained/i);
  });

  it("writes the stylesheet from the palette", () => {
    const css = severityCss();
    expect(css).toContain(
      ".sev-masked { color: var(--sev-masked-fg); background: var(--sev-masked-bg);",
    );
    expect(css.split("\n")).toHaveLength(4);
  });

  it("counts every state, zeros included", () => {
    expect(countBySeverity(["masked", "trained", "masked"])).toEqual({
      trained: 1,
      trained_with_warnings: 0,
      masked: 2,
      pending: 0,
    });
  });
});

describe("alert boxes", () => {
  it("take the class of the rollouts they name, so a trained-with-warnings error is amber", () => {
    expect(alertSeverityClass({ severity: "error", verdict: "trained_with_warnings" })).toBe(
      "sev-warn",
    );
    expect(alertSeverityClass({ severity: "warning", verdict: "trained_with_warnings" })).toBe(
      "sev-warn",
    );
    expect(alertSeverityClass({ severity: "warning", verdict: "masked" })).toBe("sev-masked");
  });

  it("without rollouts: red for an error, amber for a warning", () => {
    expect(alertSeverityClass({ severity: "error", verdict: null })).toBe("sev-masked");
    expect(alertSeverityClass({ severity: "warning", verdict: null })).toBe("sev-warn");
  });

  it("keep the page's text and links readable on their backgrounds", () => {
    // app/globals.css: `.alerts .alert` keeps --text; links are --accent.
    for (const theme of THEMES)
      for (const s of ["trained_with_warnings", "masked"] as const)
        for (const fg of ["var(--text)", "var(--accent)"])
          expect(
            ratio(theme, fg, SEVERITY_PALETTE[s].bg),
            `${theme} ${fg} on ${s}`,
          ).toBeGreaterThanOrEqual(4.5);
  });
});

describe("a zero count on the home page", () => {
  it("is grey, not a severity colour, and readable (AA text)", () => {
    expect(Object.values(SEVERITY_CLASS)).not.toContain(ZERO_COUNT_CLASS);
    // The page's --muted: no hue to speak of (grey), unlike every severity's text.
    for (const theme of THEMES) {
      const fg = hex(theme, ZERO_COUNT_COLOURS.fg);
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(fg.slice(i, i + 2), 16));
      expect(Math.max(r!, g!, b!) - Math.min(r!, g!, b!), theme).toBeLessThan(32);
      expect(ratio(theme, ZERO_COUNT_COLOURS.fg, ZERO_COUNT_COLOURS.bg)).toBeGreaterThanOrEqual(
        4.5,
      );
      for (const page of PAGE_BACKGROUNDS)
        expect(ratio(theme, ZERO_COUNT_COLOURS.fg, page), theme).toBeGreaterThanOrEqual(4.5);
    }
  });
});
