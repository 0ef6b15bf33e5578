// The severity class of a reason as the health report names it (by title, lib/severity reasons):
// the colour its bar takes in "why not simply trained". Which reasons apply is classify.ts's job.
import { WARNING_TITLES as TITLES, type SeverityState } from "@/lib/severity";

/** The titles lib/severity gives its warnings (trained_with_warnings); every other title masks. */
const WARNING_TITLES: ReadonlySet<string> = new Set(
  Object.entries(TITLES).flatMap(([code, title]) => (code === "retired" ? [] : [title])),
);

/** A reason title's class: a warning's amber, a mask reason's red, "not yet known" grey. */
export function reasonTitleSeverity(title: string): SeverityState {
  if (title === "not yet known") return "pending";
  return WARNING_TITLES.has(title) ? "trained_with_warnings" : "masked";
}
