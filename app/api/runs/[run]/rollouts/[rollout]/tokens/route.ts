import { answer, profileParam } from "@/lib/http";
import { lowProbTokens, rolloutModel, segmentedWindow, tokenWindow } from "@/lib/inspect";
import { getRun } from "@/lib/runs";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// ?chain=<sequence>&offset&limit: a window of tokens; &segments=1 adds the sequence's segments
// (asked once per sequence); &lowprob=<log prob> lists generated tokens below it instead.
export const GET = answer(
  [API.tokens, API.tokensOpening, API.lowProb],
  async ({ params, query: q, signal }) => {
    const run = await getRun(params.run);
    const profile = profileParam(q.get("profile"));
    const model = await rolloutModel(run, params.rollout, { profile, signal });
    const sequence = q.get("chain") || "main";
    const low = q.get("lowprob");
    if (low !== null) return lowProbTokens(model, sequence, low, q.get("limit"));
    const window = q.get("segments") === "1" ? segmentedWindow : tokenWindow;
    return window(model, sequence, q.get("offset"), q.get("limit"));
  },
);
