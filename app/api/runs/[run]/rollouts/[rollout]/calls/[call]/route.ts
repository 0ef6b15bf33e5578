import { answer, profileParam } from "@/lib/http";
import { callDetail, rolloutModel } from "@/lib/inspect";
import { getRun } from "@/lib/runs";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = answer(API.callDetail, async ({ params, query, signal }) => {
  const run = await getRun(params.run);
  const profile = profileParam(query.get("profile"));
  return callDetail(await rolloutModel(run, params.rollout, { profile, signal }), params.call);
});
