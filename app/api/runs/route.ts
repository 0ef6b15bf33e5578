import { describeRuns } from "@/lib/health/run-overview";
import { errorResponse } from "@/lib/http/errors";
import { json } from "@/lib/http/params";
import { listRuns } from "@/lib/runs/runs-root";
import type { RunList } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(): Promise<Response> {
  try {
    const body: RunList = { runs: await describeRuns(await listRuns()) };
    return json(body);
  } catch (err) {
    return errorResponse(err);
  }
}
