// Chart colours. Severity colours come from the severity model (lib/severity/palette): masked red,
// trained-with-warnings amber, trained green; what is no verdict (a count of calls, a bucket of a
// distribution) is drawn in neutral colours that are none of the three. All are app/globals.css
// properties (SVG takes `var()` in its fill and stroke), so they follow the theme.
import { SEVERITY_PALETTE } from "@/lib/severity";

export const NEUTRAL = "var(--chart-neutral)";
export const NEUTRAL_2 = "var(--chart-neutral-2)";
export const NEUTRAL_3 = "var(--chart-neutral-3)";
export const MASKED = SEVERITY_PALETTE.masked.chart;
export const WARNING = SEVERITY_PALETTE.trained_with_warnings.chart;
