// The token view's colours when it shades trained tokens by train/inference mismatch, exp(|gen −
// prev|) (1 = the trainer and the inference engine agree): cool where they agree, hot where they
// drift apart. Each background carries a text colour meeting WCAG AA (4.5:1); tested alongside.
import type { Swatch } from "./token-palette";

export interface MismatchShade extends Swatch {
  /** The shade holds errors at or above this (and below the next shade's). */
  min: number;
  label: string;
}

/** Lowest first. */
export const MISMATCH_SHADES: readonly MismatchShade[] = [
  { min: 1, label: "< 1.01", bg: "#1d3b5c", fg: "#e8f1ff" },
  { min: 1.01, label: "1.01–1.1", bg: "#3d4f7a", fg: "#eef2ff" },
  { min: 1.1, label: "1.1–1.5", bg: "#c9a03a", fg: "#120d00" },
  { min: 1.5, label: "1.5–3", bg: "#e8833f", fg: "#140800" },
  { min: 3, label: "≥ 3", bg: "#ff6b78", fg: "#1a0003" },
];

/** Trained tokens without a value: past the sample's first differing token, or a non-finite one. */
export const NO_MISMATCH: Swatch = { bg: "#3a3f4b", fg: "#e6e8ee" };

/** The shade of a trained token whose error is `e` (null: no value). */
export function mismatchShade(e: number | null): Swatch {
  if (e === null || !Number.isFinite(e)) return NO_MISMATCH;
  let shade = MISMATCH_SHADES[0] as MismatchShade;
  for (const s of MISMATCH_SHADES) if (e >= s.min) shade = s;
  return shade;
}
