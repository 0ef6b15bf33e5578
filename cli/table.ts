// The human-readable form of `build` (without --jsonl): one fixed-width line per rollout.
import type { VerdictRow } from "@/lib/builder";
import { verdictLabel } from "@/lib/view";

const COLUMNS = [
  "rollout",
  "profile",
  "verdict",
  "calls",
  "chains",
  "delivered",
  "reasons / error",
] as const;
const WIDTHS = [24, 8, 8, 6, 7, 10];

function pad(cells: string[]): string {
  return cells.map((c, i) => (i < WIDTHS.length ? c.padEnd(WIDTHS[i] as number) : c)).join(" ");
}

export const TABLE_HEADER = pad([...COLUMNS]);

export function formatTableRow(row: VerdictRow): string {
  const m = row.metrics;
  const num = (v: unknown) => (typeof v === "number" ? String(v) : "-");
  const why = [row.mask_reasons.join(","), row.error ?? ""].filter(Boolean).join(" ");
  return pad([
    row.rollout_id,
    row.profile,
    verdictLabel(row),
    num(m.n_calls),
    num(m.chains),
    num(m.delivered_fraction),
    why,
  ]);
}
