import { answer, profileParam } from "@/lib/http";
import { inspectRollout, rolloutFacts, rolloutStamp } from "@/lib/inspect";
import { getRun } from "@/lib/runs";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// The rollout's view; ?stamp=1 only its file stamp, so a live page can poll without a build;
// ?facts=1 the other profile's verdict and the run's policy, which the page asks for after its
// first paint (without it the view sends them when known: other_profile null, not yet).
export const GET = answer(
  [API.rollout, API.rolloutStamp, API.rolloutFacts],
  async ({ params, query, signal }) => {
    const run = await getRun(params.run);
    const profile = profileParam(query.get("profile"));
    if (query.get("stamp") === "1") return { stamp: await rolloutStamp(run, params.rollout) };
    if (query.get("facts") === "1") return rolloutFacts(run, params.rollout, { profile, signal });
    const model = await inspectRollout(run, params.rollout, { profile, signal, other: "if-known" });
    return model.view;
  },
);
