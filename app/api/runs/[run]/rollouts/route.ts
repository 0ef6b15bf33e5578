import { rolloutPage, parseRolloutQuery } from "@/lib/index";
import { errorResponse, json } from "@/lib/http";
import { getRun } from "@/lib/runs";
import type { RolloutPage } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** One window of the run's rollouts, filtered and sorted, as served (the run's severity applied). */
export async function GET(
  req: Request,
  ctx: RouteContext<"/api/runs/[run]/rollouts">,
): Promise<Response> {
  try {
    const run = await getRun((await ctx.params).run);
    const body: RolloutPage = await rolloutPage(
      run,
      parseRolloutQuery(new URL(req.url).searchParams),
    );
    return json(body);
  } catch (err) {
    return errorResponse(err);
  }
}
