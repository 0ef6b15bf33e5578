// The human-readable form of `build` (without --jsonl): one fixed-width line per rollout.
import type { VerdictRow } from "@/lib/builder";

const COLUMNS = ["rollout", "profile", "verdict", "calls", "chains", "delivered", "reasons / error"] as const;
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
    verdictWord(row),
    num(m.n_calls),
    num(m.chains),
    num(m.delivered_fraction),
    why,
  ]);
}

function verdictWord(row: VerdictRow): string {
  if (row.mask_sample) return "masked";
  if (row.error?.endsWith("is retired")) return "retired";
  return Object.keys(row.metrics).length === 0 ? "no data" : "trained";
}
