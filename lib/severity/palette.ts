// One colour and one CSS class per severity, for every page: table pills, chart series, home-page
// counts, alerts and the inspector's banner. The colours are app/globals.css properties (a light and
// a dark value each, held to WCAG contrast by lib/view/palette.test.ts); this names them. Includes
// the WCAG contrast ratio. Rendering (where the classes go) belongs to components/.
import type { SeverityState } from "./reasons";

/** The class a pill, row or alert of this severity carries; masked is never the green one. */
export const SEVERITY_CLASS: Readonly<Record<SeverityState, string>> = {
  trained: "sev-trained",
  trained_with_warnings: "sev-warn",
  masked: "sev-masked",
  pending: "sev-pending",
};

/**
 * An alert box's class: the severity class of the rollouts it names (a "trained, warnings" alert
 * is amber even when the alert is an error), else red for an error and amber for a warning. So
 * a box is red only when what it reports is masked or broken.
 */
export function alertSeverityClass(alert: {
  severity: "error" | "warning";
  verdict: SeverityState | null;
}): string {
  if (alert.verdict) return SEVERITY_CLASS[alert.verdict];
  return SEVERITY_CLASS[alert.severity === "error" ? "masked" : "trained_with_warnings"];
}

/**
 * A home-page count of zero: known, so shown, but muted (app/globals.css `.count-zero`, grey on
 * the pill background), never in an alarming colour ("masked 0" is good news).
 */
export const ZERO_COUNT_CLASS = "count-zero";
/** `.count-zero`'s colours: `--muted` on `--panel-2` of app/globals.css. */
export const ZERO_COUNT_COLOURS = { fg: "var(--muted)", bg: "var(--panel-2)" } as const;

/** The pill's words. A pending rollout never says "trained". */
export const SEVERITY_LABEL: Readonly<Record<SeverityState, string>> = {
  trained: "trained",
  trained_with_warnings: "trained, warnings",
  masked: "masked",
  pending: "not yet known",
};

/** Each colour is a `var(--sev-…)` of app/globals.css, so it follows the theme (SVG too). */
export interface SeverityColours {
  /** Pill text. */
  fg: string;
  /** Pill background. */
  bg: string;
  border: string;
  /** Chart marks (bars, dots) on the page background. */
  chart: string;
}

/** The page backgrounds of app/globals.css (`--bg`, `--panel`) that charts are drawn on. */
export const PAGE_BACKGROUNDS = ["var(--bg)", "var(--panel)"] as const;

/** The properties of one class (named as it is): `--sev-warn-fg`, `--sev-warn-bg`, … */
function themed(name: string): SeverityColours {
  const v = (part: string) => `var(--${name}-${part})`;
  return { fg: v("fg"), bg: v("bg"), border: v("border"), chart: v("chart") };
}

export const SEVERITY_PALETTE: Readonly<Record<SeverityState, SeverityColours>> = {
  trained: themed(SEVERITY_CLASS.trained),
  trained_with_warnings: themed(SEVERITY_CLASS.trained_with_warnings),
  masked: themed(SEVERITY_CLASS.masked),
  pending: themed(SEVERITY_CLASS.pending),
};

export const SEVERITY_ORDER: readonly SeverityState[] = [
  "trained",
  "trained_with_warnings",
  "masked",
  "pending",
];

function channels(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [parseInt(m[1] as string, 16), parseInt(m[2] as string, 16), parseInt(m[3] as string, 16)];
}

/** WCAG 2.x relative luminance of an sRGB colour. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.x contrast ratio, 1 … 21 (AA asks 4.5 for text, 3 for graphics). */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The stylesheet for the classes, generated from the palette so the two cannot drift apart. */
export function severityCss(): string {
  return SEVERITY_ORDER.map((s) => {
    const c = SEVERITY_PALETTE[s];
    const name = SEVERITY_CLASS[s];
    return `.${name} { color: ${c.fg}; background: ${c.bg}; border-color: ${c.border}; --sev-chart: ${c.chart}; }`;
  }).join("\n");
}

/** Counts per severity, every state present (a home page shows zeros too). */
export function countBySeverity(states: Iterable<SeverityState>): Record<SeverityState, number> {
  const counts: Record<SeverityState, number> = {
    trained: 0,
    trained_with_warnings: 0,
    masked: 0,
    pending: 0,
  };
  for (const s of states) counts[s]++;
  return counts;
}
