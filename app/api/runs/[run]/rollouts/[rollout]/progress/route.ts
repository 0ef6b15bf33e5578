import { errorResponse, json, profileParam } from "@/lib/http";
import { inspectProgress } from "@/lib/inspect";
import { getRun } from "@/lib/runs";
import type { BuildProgress } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// [?profile=]: how the inspector's build of the rollout stands (ready, queued with the bytes it
// will read, or building: phase and bytes read). The loading page polls it; it never starts a build.
export async function GET(
  req: Request,
  ctx: RouteContext<"/api/runs/[run]/rollouts/[rollout]/progress">,
): Promise<Response> {
  try {
    const { run: runId, rollout } = await ctx.params;
    const profile = profileParam(new URL(req.url).searchParams.get("profile"));
    const run = await getRun(runId);
    const body: BuildProgress = await inspectProgress(run, rollout, { profile });
    return json(body);
  } catch (err) {
    return errorResponse(err);
  }
}
