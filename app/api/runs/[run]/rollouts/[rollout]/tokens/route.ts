import { getRun } from "@/lib/runs";
import { rolloutModel, lowProbTokens, segmentedWindow, tokenWindow } from "@/lib/inspect";
import { errorResponse, json, profileParam } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// ?chain=<sequence>&offset&limit: a window of tokens; &segments=1 adds the sequence's segments
// (asked once per sequence); &lowprob=<log prob> lists generated tokens below it instead.
export async function GET(
  req: Request,
  ctx: RouteContext<"/api/runs/[run]/rollouts/[rollout]/tokens">,
): Promise<Response> {
  try {
    const { run: runId, rollout } = await ctx.params;
    const q = new URL(req.url).searchParams;
    const run = await getRun(runId);
    const model = await rolloutModel(run, rollout, {
      profile: profileParam(q.get("profile")),
      signal: req.signal,
    });
    const sequence = q.get("chain") || "main";
    const low = q.get("lowprob");
    if (low !== null) return json(lowProbTokens(model, sequence, low, q.get("limit")));
    const window = q.get("segments") === "1" ? segmentedWindow : tokenWindow;
    return json(window(model, sequence, q.get("offset"), q.get("limit")));
  } catch (err) {
    return errorResponse(err);
  }
}
