import { answer } from "@/lib/http";
import { recordColumnsSql, withSyncedRecords } from "@/lib/index";
import { getRun, parseRecordColumnsQuery } from "@/lib/runs";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * The scalar fields of the run's rollout records (from a sample of them) and, with
 * `columns=a,b&id=…`, those rollouts' values (read by id): the rollouts table's record columns
 * (lib/schema/api-groups), from the summary index's records table.
 */
export const GET = answer(API.recordFields, async ({ params, query }) => {
  const run = await getRun(params.run);
  const q = parseRecordColumnsQuery(query);
  return withSyncedRecords(run, (db) => recordColumnsSql(db, q));
});
