import { getRun } from "@/lib/runs/runs-root";
import { rolloutModel } from "@/lib/inspect/rollout-model";
import { conversationPage, parseConversationQuery } from "@/lib/inspect/conversation";
import { errorResponse } from "@/lib/http/errors";
import { json, profileParam } from "@/lib/http/params";

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
