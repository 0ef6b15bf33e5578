import { answer } from "@/lib/http";
import { runGroupsSql, withSyncedRecords } from "@/lib/index";
import { getRun, parseGroupsQuery, withLoggedAdvantages } from "@/lib/runs";
import { API } from "@/lib/schema";
import { loggedAdvantages } from "@/lib/trainer";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * The run's rollout records in GRPO groups (by task and step by default; lib/schema/api-groups),
 * from the summary index's records table: only the asked page's members are read. Beside each
 * advantage, the one the trainer logged (its step files, through the truth check's join).
 */
export const GET = answer(API.groups, async ({ params, query }) => {
  const run = await getRun(params.run);
  const q = parseGroupsQuery(query);
  const [body, logged] = await Promise.all([
    withSyncedRecords(run, (db) => runGroupsSql(db, q)),
    loggedAdvantages(run).then(
      (v) => ({ v, error: null }),
      (err: unknown) => ({ v: null, error: (err as Error).message }),
    ),
  ]);
  if (logged.v) return withLoggedAdvantages(body, logged.v);
  return { ...body, logged_error: logged.error };
});
