// Links into the inspector's token view at one token: where a re-rendered prompt first parts from
// the earlier turn (docs/ledger.md), and a trained token coloured by its mismatch (the hotspots).
import type { RerenderedAt } from "@/lib/schema";
import { rolloutPath } from "./rollout-nav";

export function tokenAtHref(runId: string, at: RerenderedAt): string {
  const q = new URLSearchParams({ tab: "tokens", chain: at.chain ?? "main", call: at.call_id });
  q.set("pos", String(at.position));
  return `${rolloutPath(runId, at.rollout_id)}?${q.toString()}`;
}

/**
 * A trained token in the inspector: main's token view at `pos`, coloured by mismatch; with
 * `experts`, the routed experts panel open on it too (docs/experts.md).
 */
export const mismatchTokenHref = (
  runId: string,
  rolloutId: string,
  pos: number,
  { experts = false }: { experts?: boolean } = {},
): string =>
  `${rolloutPath(runId, rolloutId)}?tab=tokens&chain=main&pos=${pos}&mismatch=1${experts ? "&experts=1" : ""}`;
