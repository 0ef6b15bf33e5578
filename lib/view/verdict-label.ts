// One word for a verdict row (masked, trained, retired, no data), shared by the CLI table and the
// views so they never label the same verdict differently.
import type { VerdictRow } from "@/lib/builder";

export type VerdictLabel = "masked" | "trained" | "retired" | "no data";

export function verdictLabel(
  row: Pick<VerdictRow, "mask_sample" | "error" | "metrics">,
): VerdictLabel {
  if (row.mask_sample) return "masked";
  if (row.error?.endsWith("is retired")) return "retired";
  return Object.keys(row.metrics).length === 0 ? "no data" : "trained";
}
