import { errorResponse, json } from "@/lib/http";
import { parseGroupsQuery, getRun } from "@/lib/runs";
import { runGroupsSql, withSyncedRecords } from "@/lib/index";
import type { RunGroups } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * The run's rollout records in GRPO groups (by task and step by default; lib/schema/api-groups),
 * from the summary index's records table: only the asked page's members are read.
 */
export async function GET(
  req: Request,
  ctx: { params: Promise<{ run: string }> },
): Promise<Response> {
  try {
    const run = await getRun((await ctx.params).run);
    const query = parseGroupsQuery(new URL(req.url).searchParams);
    const body: RunGroups = await withSyncedRecords(run, (db) => runGroupsSql(db, query));
    return json(body);
  } catch (err) {
    return errorResponse(err);
  }
}
