// The token view's colours: every background a token can have, each with the text colour drawn on
// it, as app/globals.css properties (a light and a dark value each, `--tok-*`), so inline styles
// follow the theme. token-palette.test.ts checks every pair listed in `textPairs` (WCAG AA, 4.5:1)
// in both themes. Layout lives in CSS.

export interface Swatch {
  bg: string;
  fg: string;
}

export interface Shade extends Swatch {
  /** The shade holds generated tokens with probability at or above this (and below the next). */
  minProb: number;
  label: string;
}

/** A background and its text: `--NAME-bg` and `--NAME-fg` of app/globals.css. */
export function swatch(name: string): Swatch {
  return { bg: `var(--${name}-bg)`, fg: `var(--${name}-fg)` };
}

/** The scroll area behind the lines, headers and placeholders. */
export const CANVAS = "var(--tok-canvas)";

/** Re-fed tokens (mask 0): the prompt, inherited prefix and interstitials. */
export const REFED: Swatch = swatch("tok-refed");

/** Generated tokens (mask 1), farther from the canvas the more probable; highest first. */
export const GENERATED_SHADES: readonly Shade[] = [
  { minProb: 0.9, label: "p ≥ 0.9", ...swatch("tok-gen-0") },
  { minProb: 0.7, label: "0.7–0.9", ...swatch("tok-gen-1") },
  { minProb: 0.5, label: "0.5–0.7", ...swatch("tok-gen-2") },
  { minProb: 0.3, label: "0.3–0.5", ...swatch("tok-gen-3") },
  { minProb: 0.1, label: "0.1–0.3", ...swatch("tok-gen-4") },
  { minProb: 0, label: "p < 0.1", ...swatch("tok-gen-5") },
];

/** Generated tokens without a log prob. */
export const UNSCORED: Swatch = swatch("tok-unscored");

/**
 * Generated tokens (mask 1) that are not trained on (a dropped retry, a branch, a side call, a
 * quarantined call, a masked rollout): one amber shade, never the trained green.
 */
export const NOT_TRAINED: Swatch = swatch("tok-untrained");

/** Tokens the low-probability filter sets aside (instead of lowering their contrast). */
export const QUIET: Swatch = swatch("tok-quiet");

/** Text drawn on the canvas: headers, gutters, placeholders, the legend. */
export const CHROME = {
  text: "var(--text)",
  muted: "var(--muted)",
  gutter: "var(--tok-gutter)",
  generated: "var(--ok)",
  notTrained: "var(--warn)",
} as const;

/** The shade of a generated token with this log prob (natural log). */
export function generatedShade(logProb: number | null): Swatch {
  if (logProb === null || Number.isNaN(logProb)) return UNSCORED;
  const p = Math.exp(Math.min(0, logProb));
  return GENERATED_SHADES.find((s) => p >= s.minProb) ?? (GENERATED_SHADES.at(-1) as Shade);
}

/**
 * A token's colours: re-fed slate, generated green by probability when its sequence is trained on
 * (`notTrained` false), amber when it is known not to be, or quiet when filtered out.
 */
export function tokenSwatch(
  mask: number,
  logProb: number | null,
  quiet: boolean,
  notTrained = false,
): Swatch {
  if (quiet) return QUIET;
  if (mask !== 1) return REFED;
  return notTrained ? NOT_TRAINED : generatedShade(logProb);
}

/** Every text colour the token view and its legend draw, on the background it is drawn on. */
export function textPairs(): Array<{ name: string } & Swatch> {
  return [
    { name: "re-fed", ...REFED },
    ...GENERATED_SHADES.map((s) => ({ name: `generated ${s.label}`, bg: s.bg, fg: s.fg })),
    { name: "generated, no log prob", ...UNSCORED },
    { name: "generated, not trained", ...NOT_TRAINED },
    { name: "filtered out", ...QUIET },
    ...Object.entries(CHROME).map(([k, fg]) => ({ name: `chrome ${k}`, bg: CANVAS, fg })),
  ];
}
