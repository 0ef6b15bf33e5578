import { answer } from "@/lib/http";
import { parseRolloutQuery, rolloutPage } from "@/lib/index";
import { getRun } from "@/lib/runs";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** One window of the run's rollouts, filtered and sorted, as served (the run's severity applied). */
export const GET = answer(API.rollouts, async ({ params, query }) =>
  rolloutPage(await getRun(params.run), parseRolloutQuery(query)),
);
