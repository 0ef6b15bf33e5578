import { answer } from "@/lib/http";
import { runGroupsSql, withSyncedRecords } from "@/lib/index";
import { getRun, parseGroupsQuery } from "@/lib/runs";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * The run's rollout records in GRPO groups (by task and step by default; lib/schema/api-groups),
 * from the summary index's records table: only the asked page's members are read.
 */
export const GET = answer(API.groups, async ({ params, query }) => {
  const run = await getRun(params.run);
  const q = parseGroupsQuery(query);
  return withSyncedRecords(run, (db) => runGroupsSql(db, q));
});
