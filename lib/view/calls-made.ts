// How many model calls a rollout made, one count for the run table, compare and exports: captured
// calls (token entries), failed ones that left no token entry (a 422) and lost ones (answered, no
// token entry), so it agrees with the recorded exchanges' status codes; and when a row's store
// counts are not known yet.
import type { RolloutSummary } from "@/lib/schema";

export const callsMade = (s: Pick<RolloutSummary, "n_calls" | "failed_calls" | "lost_calls">) =>
  s.n_calls + s.failed_calls + s.lost_calls;

/**
 * A store rollout's row standing in from its record while its token store is read (pending,
 * lib/index/update standInOf): its calls, side calls and statuses are not known yet, not zero.
 */
export const storeUnread = (s: Pick<RolloutSummary, "source" | "severity">) =>
  s.source === "record" && s.severity === "pending";
