import { getRun } from "@/lib/runs";
import { rolloutModel, conversationPage, parseConversationQuery } from "@/lib/inspect";
import { errorResponse, json, profileParam } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// ?chain=main|<chain id>|call:<id>&offset&limit&clip&profile: a page of the sequence as a
// conversation (items: messages, side calls, failed calls), every text block cut to `clip` chars.
export async function GET(
  req: Request,
  ctx: { params: Promise<{ run: string; rollout: string }> },
): Promise<Response> {
  try {
    const { run: runId, rollout } = await ctx.params;
    const q = new URL(req.url).searchParams;
    const query = parseConversationQuery(q);
    const run = await getRun(runId);
    const profile = profileParam(q.get("profile"));
    const model = await rolloutModel(run, rollout, { profile, signal: req.signal });
    return json(conversationPage(model, query));
  } catch (err) {
    return errorResponse(err);
  }
}
