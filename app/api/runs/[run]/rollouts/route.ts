import { errorResponse } from "@/lib/http/errors";
import { json } from "@/lib/http/params";
import { filterKey, parseRolloutQuery, selectRollouts } from "@/lib/runs/rollout-query";
import { getRun } from "@/lib/runs/runs-root";
import { indexFor } from "@/lib/runs/summary-index";
import type { RolloutPage } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(req: Request, ctx: RouteContext<"/api/runs/[run]/rollouts">): Promise<Response> {
  try {
    const run = await getRun((await ctx.params).run);
    const query = parseRolloutQuery(new URL(req.url).searchParams);
    const index = indexFor(run);
    const snap = await index.snapshot();
    const rows = index.memo(`rows:${filterKey(query)}`, (all) => selectRollouts(all, query));
    const body: RolloutPage = { total: rows.length, all: snap.summaries.length, offset: query.offset, rollouts: rows.slice(query.offset, query.offset + query.limit), progress: snap.progress };
    return json(body);
  } catch (err) {
    return errorResponse(err);
  }
}
