import { errorResponse } from "@/lib/http/errors";
import { json } from "@/lib/http/params";
import { parseGroupsQuery, runGroups } from "@/lib/runs/groups";
import { readRolloutRecords } from "@/lib/runs/rollout-records";
import { getRun } from "@/lib/runs/runs-root";
import type { RunGroups } from "@/lib/schema/api-groups";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The run's rollout records in GRPO groups (by task and step by default; lib/schema/api-groups). */
export async function GET(
  req: Request,
  ctx: { params: Promise<{ run: string }> },
): Promise<Response> {
  try {
    const run = await getRun((await ctx.params).run);
    const query = parseGroupsQuery(new URL(req.url).searchParams);
    const records = await readRolloutRecords(run.rolloutsFile);
    const body: RunGroups = runGroups(records.byId, query);
    return json(body);
  } catch (err) {
    return errorResponse(err);
  }
}
