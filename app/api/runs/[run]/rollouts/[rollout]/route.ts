import { getRun } from "@/lib/runs";
import { inspectRollout, rolloutFacts, rolloutStamp } from "@/lib/inspect";
import { errorResponse, json, profileParam } from "@/lib/http";
import type { RolloutFacts, RolloutStamp } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(
  req: Request,
  ctx: RouteContext<"/api/runs/[run]/rollouts/[rollout]">,
): Promise<Response> {
  try {
    const { run: runId, rollout } = await ctx.params;
    const run = await getRun(runId);
    const q = new URL(req.url).searchParams;
    const profile = profileParam(q.get("profile"));
    // ?stamp=1: only the rollout's file stamp, so a live page can poll without a build.
    if (q.get("stamp") === "1")
      return json({ stamp: await rolloutStamp(run, rollout) } satisfies RolloutStamp);
    // ?facts=1: the other profile's verdict and the run's policy, which the page asks for after
    // its first paint; without it the view sends them when known (other_profile null: not yet).
    if (q.get("facts") === "1") {
      const facts: RolloutFacts = await rolloutFacts(run, rollout, { profile, signal: req.signal });
      return json(facts);
    }
    const model = await inspectRollout(run, rollout, {
      profile,
      signal: req.signal,
      other: "if-known",
    });
    return json(model.view);
  } catch (err) {
    return errorResponse(err);
  }
}
