// The run alert of the splice check (docs/ledger.md): calls whose prompt re-rendered an earlier
// turn instead of splicing its exact ids, with the rollouts and the first one's differing token.
// The facts are each rollout's, computed at index time (lib/builder spliceFactsOf).
import "server-only";
import type { Alert } from "@/lib/schema";
import type { RerenderFacts } from "@/lib/ledger";
import { plural } from "@/lib/text";

export const SPLICE_ALERT_KIND = "rerendered_prefixes";
export type SpliceAlert = Omit<Alert, "kind"> & { kind: typeof SPLICE_ALERT_KIND };

export function spliceAlerts(r: RerenderFacts): SpliceAlert[] {
  if (r.rerendered === 0) return [];
  const share = ((100 * r.rerendered) / Math.max(1, r.calls)).toFixed(1);
  const first = r.sample[0];
  const where = first
    ? ` The first, in \`${first.rollout_id}\`, parts from the earlier turn at token ${first.position.toLocaleString("en-US")} of its prompt.`
    : "";
  return [
    {
      kind: SPLICE_ALERT_KIND,
      severity: "warning",
      verdict: null,
      count: r.rollouts,
      message: `${plural(r.rerendered, "call")} of ${r.calls.toLocaleString("en-US")} (${share}%) re-rendered an earlier turn instead of splicing its exact ids, in ${plural(r.rollouts, "rollout")}: the trainer sees tokens the model did not sample there.${where}`,
      rollout_ids: r.sample.map((s) => s.rollout_id),
      ...(first && { at: first }),
    },
  ];
}
