// The token view's colours when it shades trained tokens by train/inference mismatch, exp(|gen −
// prev|) (1 = the trainer and the inference engine agree): cool where they agree, hot where they
// drift apart. Each background carries a text colour meeting WCAG AA (4.5:1) in both themes
// (app/globals.css `--mm-*`); tested alongside.
import { swatch, type Swatch } from "./token-palette";

export interface MismatchShade extends Swatch {
  /** The shade holds errors at or above this (and below the next shade's). */
  min: number;
  label: string;
}

/** Lowest first. */
export const MISMATCH_SHADES: readonly MismatchShade[] = [
  { min: 1, label: "< 1.01", ...swatch("mm-0") },
  { min: 1.01, label: "1.01–1.1", ...swatch("mm-1") },
  { min: 1.1, label: "1.1–1.5", ...swatch("mm-2") },
  { min: 1.5, label: "1.5–3", ...swatch("mm-3") },
  { min: 3, label: "≥ 3", ...swatch("mm-4") },
];

/** Trained tokens without a value: past the sample's first differing token, or a non-finite one. */
export const NO_MISMATCH: Swatch = swatch("mm-none");

/** The shade of a trained token whose error is `e` (null: no value). */
export function mismatchShade(e: number | null): Swatch {
  if (e === null || !Number.isFinite(e)) return NO_MISMATCH;
  let shade = MISMATCH_SHADES[0] as MismatchShade;
  for (const s of MISMATCH_SHADES) if (e >= s.min) shade = s;
  return shade;
}
