import { answer, profileParam } from "@/lib/http";
import { conversationPage, parseConversationQuery, rolloutModel } from "@/lib/inspect";
import { getRun } from "@/lib/runs";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// ?chain=main|<chain id>|call:<id>&offset&limit&clip&profile: a page of the sequence as a
// conversation (items: messages, side calls, failed calls), every text block cut to `clip` chars.
export const GET = answer(API.conversation, async ({ params, query, signal }) => {
  const q = parseConversationQuery(query);
  const run = await getRun(params.run);
  const profile = profileParam(query.get("profile"));
  return conversationPage(await rolloutModel(run, params.rollout, { profile, signal }), q);
});
