import { getRun } from "@/lib/runs";
import { rolloutModel, callDetail } from "@/lib/inspect";
import { errorResponse, json, profileParam } from "@/lib/http";

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
