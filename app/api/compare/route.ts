import { compareRuns } from "@/lib/compare";
import { errorResponse, json } from "@/lib/http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(req: Request): Promise<Response> {
  try {
    const q = new URL(req.url).searchParams;
    // `scalar` must be one both runs log; compareRuns answers anything else with the allowed tags.
    return json(await compareRuns(q.get("a"), q.get("b"), q.get("baseline"), q.get("scalar")));
  } catch (err) {
    return errorResponse(err);
  }
}
