import { answer } from "@/lib/http";
import { parseRolloutQuery, servedNeighbours } from "@/lib/index";
import { getRun } from "@/lib/runs";
import { API } from "@/lib/schema";
import { assertRolloutId } from "@/lib/store";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// ?<the rollouts table's sort and filters>: the rollouts before and after this one in the table's
// order, its place and the filtered count, for the inspector's previous / next. The table's own
// query (the run's severity applied), so the order agrees.
export const GET = answer(API.neighbors, async ({ params, query }) => {
  assertRolloutId(params.rollout);
  const q = parseRolloutQuery(query);
  return servedNeighbours(await getRun(params.run), params.rollout, q);
});
