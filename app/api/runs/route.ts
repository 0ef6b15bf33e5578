import { describeRuns } from "@/lib/health";
import { errorResponse, json } from "@/lib/http";
import { listRuns } from "@/lib/runs";
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
