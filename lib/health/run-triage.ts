// The home page's order: worst run first. A run with an error alert (a run.json that could not be
// used, rollouts cut short, unreadable files) or masked rollouts comes first, then a run with
// warnings (alerts, rollouts trained with warnings), then healthy runs; within each, by name. A
// run's worst alert is the one its row shows in words. Pure; the client's list and /api/runs share it.
import type { Alert, RunOverview } from "@/lib/schema";

/** 0: errors or masked rollouts; 1: warnings; 2: nothing to look at. */
export type TriageRank = 0 | 1 | 2;

type Ranked = Pick<RunOverview, "masked" | "alerts" | "severity" | "manifest_error"> & {
  worst_alert: Pick<Alert, "severity"> | null;
};

export function triageRank(r: Ranked): TriageRank {
  if (r.worst_alert?.severity === "error" || r.masked > 0 || r.manifest_error) return 0;
  if (r.alerts > 0 || r.severity.trained_with_warnings > 0) return 1;
  return 2;
}

/** Worst first, then by name (then id, so the order is total). */
export function byTriage(
  a: Ranked & Pick<RunOverview, "name" | "id">,
  b: Ranked & Pick<RunOverview, "name" | "id">,
): number {
  return (
    triageRank(a) - triageRank(b) ||
    a.name.localeCompare(b.name, "en") ||
    a.id.localeCompare(b.id, "en")
  );
}

const VERDICT_RANK = { masked: 0, trained_with_warnings: 1 } as const;

/** The alert a run's row leads with: errors first, then those naming masked rollouts, then the most rollouts. */
export function worstAlert<A extends Pick<Alert, "severity" | "verdict" | "count">>(
  alerts: readonly A[],
): A | null {
  let worst: A | null = null;
  const key = (a: A) => [
    a.severity === "error" ? 0 : 1,
    a.verdict === null ? 2 : VERDICT_RANK[a.verdict],
    -a.count,
  ];
  for (const a of alerts) {
    if (worst === null) {
      worst = a;
      continue;
    }
    const [x, y] = [key(a), key(worst)];
    const i = x.findIndex((v, j) => v !== y[j]);
    if (i >= 0 && (x[i] ?? 0) < (y[i] ?? 0)) worst = a;
  }
  return worst;
}
