import { servedNeighbours, parseRolloutQuery } from "@/lib/index";
import { errorResponse, json } from "@/lib/http";
import { getRun } from "@/lib/runs";
import type { RolloutNeighbors } from "@/lib/schema";
import { assertRolloutId } from "@/lib/store";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// ?<the rollouts table's sort and filters>: the rollouts before and after this one in the table's
// order, its place and the filtered count, for the inspector's previous / next.
export async function GET(
  req: Request,
  ctx: RouteContext<"/api/runs/[run]/rollouts/[rollout]/neighbors">,
): Promise<Response> {
  try {
    const { run: runId, rollout } = await ctx.params;
    assertRolloutId(rollout);
    const query = parseRolloutQuery(new URL(req.url).searchParams);
    const run = await getRun(runId);
    // The table's own query (the run's severity applied), so the order agrees.
    const body: RolloutNeighbors = await servedNeighbours(run, rollout, query);
    return json(body);
  } catch (err) {
    return errorResponse(err);
  }
}
