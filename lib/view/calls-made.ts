// How many model calls a rollout made, one count for the run table, compare and exports: captured
// calls (token entries), failed ones that left no token entry (a 422) and lost ones (answered, no
// token entry), so it agrees with the recorded exchanges' status codes.
import type { RolloutSummary } from "@/lib/schema";

export const callsMade = (s: Pick<RolloutSummary, "n_calls" | "failed_calls" | "lost_calls">) =>
  s.n_calls + s.failed_calls + s.lost_calls;
