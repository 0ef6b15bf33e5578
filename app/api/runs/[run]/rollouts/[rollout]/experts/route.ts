import { answer, profileParam } from "@/lib/http";
import { expertsWindow, rolloutModel } from "@/lib/inspect";
import { getRun } from "@/lib/runs";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// ?chain=<sequence>&offset&limit: each position's routed experts, windowed like the tokens route.
export const GET = answer(API.experts, async ({ params, query: q, signal }) => {
  const run = await getRun(params.run);
  const profile = profileParam(q.get("profile"));
  const model = await rolloutModel(run, params.rollout, { profile, signal });
  return expertsWindow(model, q.get("chain") || "main", q.get("offset"), q.get("limit"));
});
