// The call timeline's cells in words: a row's model (requested → served, or a failed call's error
// in its place), token counts in a few characters and seconds on the time axis. Pure formatting;
// which rows exist and what they hold is ./rows.
import { isCall, type TimelineRow } from "./rows";

/** The model cell: the served model (after the requested one when they differ), with a title. */
export function modelText(row: TimelineRow): { text: string; title: string } {
  if (!isCall(row)) return { text: row.reason ?? "", title: row.reason ?? "" };
  const [asked, served] = [row.requested_model, row.served_model ?? ""];
  const why = row.reason ? `\n${row.label}: ${row.reason}` : "";
  if (asked === null || asked === served) return { text: served, title: `model: ${served}${why}` };
  return { text: `${asked} → ${served}`, title: `requested: ${asked}\nserved: ${served}${why}` };
}

/** 950, 9,999, 12.3k, 200k: the full count is in the cell's title. */
export function compact(n: number): string {
  if (n < 10_000) return n.toLocaleString("en-US");
  return n < 100_000 ? `${(n / 1000).toFixed(1)}k` : `${Math.round(n / 1000)}k`;
}

/** A time-axis span: 1.25 s, 73.0 s, 12.5 min. */
export function seconds(s: number): string {
  if (s < 10) return `${s.toFixed(2)} s`;
  return s < 600 ? `${s.toFixed(1)} s` : `${(s / 60).toFixed(1)} min`;
}
