// Chart colours. Severity colours come from the severity model (lib/severity/palette): masked red,
// trained-with-warnings amber, trained green; what is no verdict (a count of calls, a bucket of a
// distribution) is drawn in neutral colours that are none of the three.
import { SEVERITY_PALETTE } from "@/lib/severity/palette";

export const NEUTRAL = "#6ea8fe";
export const NEUTRAL_2 = "#c586c0";
export const NEUTRAL_3 = "#8a93a3";
export const MASKED = SEVERITY_PALETTE.masked.chart;
export const WARNING = SEVERITY_PALETTE.trained_with_warnings.chart;
