import { errorResponse, json } from "@/lib/http";
import { parseRecordColumnsQuery, getRun } from "@/lib/runs";
import { recordColumnsSql, withSyncedRecords } from "@/lib/index";
import type { RecordFields } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * The scalar fields of the run's rollout records (from a sample of them) and, with
 * `columns=a,b&id=…`, those rollouts' values (read by id): the rollouts table's record columns
 * (lib/schema/api-groups), from the summary index's records table.
 */
export async function GET(
  req: Request,
  ctx: { params: Promise<{ run: string }> },
): Promise<Response> {
  try {
    const run = await getRun((await ctx.params).run);
    const query = parseRecordColumnsQuery(new URL(req.url).searchParams);
    const body: RecordFields = await withSyncedRecords(run, (db) => recordColumnsSql(db, query));
    return json(body);
  } catch (err) {
    return errorResponse(err);
  }
}
