import { errorResponse } from "@/lib/http/errors";
import { json } from "@/lib/http/params";
import { parseRecordColumnsQuery, recordColumns } from "@/lib/runs/record-fields";
import { readRolloutRecords } from "@/lib/runs/rollout-records";
import { getRun } from "@/lib/runs/runs-root";
import type { RecordFields } from "@/lib/schema/api-groups";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * The scalar fields of the run's rollout records and, with `columns=a,b&id=…`, those rollouts'
 * values: the rollouts table's record columns (lib/schema/api-groups).
 */
export async function GET(
  req: Request,
  ctx: { params: Promise<{ run: string }> },
): Promise<Response> {
  try {
    const run = await getRun((await ctx.params).run);
    const query = parseRecordColumnsQuery(new URL(req.url).searchParams);
    const records = await readRolloutRecords(run.rolloutsFile);
    const body: RecordFields = recordColumns(records.byId, query);
    return json(body);
  } catch (err) {
    return errorResponse(err);
  }
}
