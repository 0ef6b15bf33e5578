// The token view's colours: every background a token can have, each with the text colour drawn on
// it. The text colour switches from light to dark as the green brightens, so each pair meets WCAG
// AA (4.5:1); token-palette.test.ts checks every pair listed in `textPairs`. Layout lives in CSS.

export interface Swatch {
  bg: string;
  fg: string;
}

export interface Shade extends Swatch {
  /** The shade holds generated tokens with probability at or above this (and below the next). */
  minProb: number;
  label: string;
}

/** The scroll area behind the lines, headers and placeholders. */
export const CANVAS = "#0c0e12";

/** Re-fed tokens (mask 0): the prompt, inherited prefix and interstitials. */
export const REFED: Swatch = { bg: "#2b3240", fg: "#d5dbe5" };

/** Generated tokens (mask 1), brighter the more probable; highest first. */
export const GENERATED_SHADES: readonly Shade[] = [
  { minProb: 0.9, label: "p ≥ 0.9", bg: "#8fe3b5", fg: "#04140b" },
  { minProb: 0.7, label: "0.7–0.9", bg: "#5cc48e", fg: "#04140b" },
  { minProb: 0.5, label: "0.5–0.7", bg: "#3f9e6e", fg: "#04140b" },
  { minProb: 0.3, label: "0.3–0.5", bg: "#28704c", fg: "#f2fff7" },
  { minProb: 0.1, label: "0.1–0.3", bg: "#1f5038", fg: "#e8fff2" },
  { minProb: 0, label: "p < 0.1", bg: "#173526", fg: "#e8fff2" },
];

/** Generated tokens without a log prob. */
export const UNSCORED: Swatch = { bg: "#35594b", fg: "#eef5f1" };

/** Tokens the low-probability filter sets aside (instead of lowering their contrast). */
export const QUIET: Swatch = { bg: "#15181e", fg: "#a4adbb" };

/** Text drawn on the canvas: headers, gutters, placeholders, the legend. */
export const CHROME = {
  text: "#e6e8ee",
  muted: "#9aa3b2",
  gutter: "#8792a5",
  generated: "#4cc38a",
  notTrained: "#f5b14c",
} as const;

/** The shade of a generated token with this log prob (natural log). */
export function generatedShade(logProb: number | null): Swatch {
  if (logProb === null || Number.isNaN(logProb)) return UNSCORED;
  const p = Math.exp(Math.min(0, logProb));
  return GENERATED_SHADES.find((s) => p >= s.minProb) ?? (GENERATED_SHADES.at(-1) as Shade);
}

/** A token's colours: re-fed slate, generated green by probability, or quiet when filtered out. */
export function tokenSwatch(mask: number, logProb: number | null, quiet: boolean): Swatch {
  if (quiet) return QUIET;
  return mask === 1 ? generatedShade(logProb) : REFED;
}

/** Every text colour the token view and its legend draw, on the background it is drawn on. */
export function textPairs(): Array<{ name: string } & Swatch> {
  return [
    { name: "re-fed", ...REFED },
    ...GENERATED_SHADES.map((s) => ({ name: `generated ${s.label}`, bg: s.bg, fg: s.fg })),
    { name: "generated, no log prob", ...UNSCORED },
    { name: "filtered out", ...QUIET },
    ...Object.entries(CHROME).map(([k, fg]) => ({ name: `chrome ${k}`, bg: CANVAS, fg })),
  ];
}
