import { getRun } from "@/lib/runs/runs-root";
import { inspectRollout } from "@/lib/inspect/rollout-model";
import { lowProbTokens, tokenWindow } from "@/lib/inspect/token-window";
import { errorResponse } from "@/lib/http/errors";
import { json, profileParam } from "@/lib/http/params";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(req: Request, ctx: RouteContext<"/api/runs/[run]/rollouts/[rollout]/tokens">): Promise<Response> {
  try {
    const { run: runId, rollout } = await ctx.params;
    const q = new URL(req.url).searchParams;
    const run = await getRun(runId);
    const model = await inspectRollout(run, rollout, { profile: profileParam(q.get("profile")), signal: req.signal });
    const sequence = q.get("chain") || "main";
    const low = q.get("lowprob");
    return json(low !== null ? lowProbTokens(model, sequence, low, q.get("limit")) : tokenWindow(model, sequence, q.get("offset"), q.get("limit")));
  } catch (err) {
    return errorResponse(err);
  }
}
