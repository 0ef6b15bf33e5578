// A link into the inspector's token view at one call's token: where a re-rendered prompt first
// parts from the earlier turn (docs/ledger.md).
import type { RerenderedAt } from "@/lib/schema";
import { rolloutPath } from "./rollout-nav";

export function tokenAtHref(runId: string, at: RerenderedAt): string {
  const q = new URLSearchParams({ tab: "tokens", chain: at.chain ?? "main", call: at.call_id });
  q.set("pos", String(at.position));
  return `${rolloutPath(runId, at.rollout_id)}?${q.toString()}`;
}
