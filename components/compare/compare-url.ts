// The /compare link for a choice of sides: `a=r1,r2` with the commas as they are (run ids never
// hold one), so the address reads as typed. A side is its lead's id when it came from a seed group
// (the id brings the group back), else its runs' ids.
import type { ComparisonSide } from "@/lib/schema";

/** A /compare link with the parameters that have a value, commas left unescaped. */
export function compareHref(p: Record<string, string | null | undefined>): string {
  const q = Object.entries(p)
    .filter((e): e is [string, string] => !!e[1])
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v).replace(/%2C/g, ",")}`);
  return `/compare?${q.join("&")}`;
}

/** What a side's `a=` or `b=` holds. */
export function sideParam(side: ComparisonSide): string {
  const [lead] = side.runs;
  if (side.from !== "list" || !lead) return lead?.id ?? "";
  return side.runs.map((r) => r.id).join(",");
}
