// Which rollout the inspector's requests are about, and the query every one of them carries: the
// page's builder profile and the rollout's file stamp (so a changed rollout is never answered
// from a cached build). URLs come from the route table (lib/schema/api-routes), never by hand.
import { apiUrl, type ApiRoute, type Query, type RolloutParams } from "@/lib/schema";
import { withMore } from "@/components/shared/api";

export interface RolloutAsk {
  at: RolloutParams;
  common: { profile: string | null; v: string };
}

export function rolloutAsk(
  view: { run_id: string; rollout_id: string; stamp: string },
  profile: string | null,
): RolloutAsk {
  return { at: { run: view.run_id, rollout: view.rollout_id }, common: { profile, v: view.stamp } };
}

/** A rollout route's URL for this rollout: the common query, then the caller's. */
export function rolloutUrl(route: ApiRoute<RolloutParams>, ask: RolloutAsk, query?: Query): string {
  return withMore(apiUrl(route, ask.at, ask.common), query ?? {});
}
