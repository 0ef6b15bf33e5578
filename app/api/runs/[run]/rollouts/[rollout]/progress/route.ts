import { answer, profileParam } from "@/lib/http";
import { inspectProgress } from "@/lib/inspect";
import { getRun } from "@/lib/runs";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// [?profile=]: how the inspector's build of the rollout stands (ready, queued with the bytes it
// will read, or building: phase and bytes read). The loading page polls it; it never starts a build.
export const GET = answer(API.progress, async ({ params, query }) => {
  const profile = profileParam(query.get("profile"));
  return inspectProgress(await getRun(params.run), params.rollout, { profile });
});
