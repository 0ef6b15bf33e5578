import { listRuns } from "@/lib/runs/runs-root";
import { describeRun } from "@/lib/runs/run-overview";
import { errorResponse } from "@/lib/http/errors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(): Promise<Response> {
  try {
    const runs = await Promise.all((await listRuns()).map(describeRun));
    return Response.json({ runs });
  } catch (err) {
    return errorResponse(err);
  }
}
