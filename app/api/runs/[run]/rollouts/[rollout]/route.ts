import { getRun } from "@/lib/runs/runs-root";
import { inspectRollout, rolloutStamp } from "@/lib/inspect/rollout-model";
import { errorResponse } from "@/lib/http/errors";
import { json, profileParam } from "@/lib/http/params";
import type { RolloutStamp } from "@/lib/schema/api-rollout";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(
  req: Request,
  ctx: RouteContext<"/api/runs/[run]/rollouts/[rollout]">,
): Promise<Response> {
  try {
    const { run: runId, rollout } = await ctx.params;
    const run = await getRun(runId);
    const q = new URL(req.url).searchParams;
    const profile = profileParam(q.get("profile"));
    // ?stamp=1: only the rollout's file stamp, so a live page can poll without a build.
    if (q.get("stamp") === "1")
      return json({ stamp: await rolloutStamp(run, rollout) } satisfies RolloutStamp);
    const model = await inspectRollout(run, rollout, { profile, signal: req.signal });
    return json(model.view);
  } catch (err) {
    return errorResponse(err);
  }
}
