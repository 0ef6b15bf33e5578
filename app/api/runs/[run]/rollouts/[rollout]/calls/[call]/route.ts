import { getRun } from "@/lib/runs/runs-root";
import { rolloutModel } from "@/lib/inspect/rollout-model";
import { callDetail } from "@/lib/inspect/call-detail";
import { errorResponse } from "@/lib/http/errors";
import { json, profileParam } from "@/lib/http/params";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(
  req: Request,
  ctx: RouteContext<"/api/runs/[run]/rollouts/[rollout]/calls/[call]">,
): Promise<Response> {
  try {
    const { run: runId, rollout, call } = await ctx.params;
    const run = await getRun(runId);
    const model = await rolloutModel(run, rollout, {
      profile: profileParam(new URL(req.url).searchParams.get("profile")),
      signal: req.signal,
    });
    return json(callDetail(model, call));
  } catch (err) {
    return errorResponse(err);
  }
}
