import { compareRuns } from "@/lib/compare/load";
import { errorResponse } from "@/lib/http/errors";
import { json } from "@/lib/http/params";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(req: Request): Promise<Response> {
  try {
    const q = new URL(req.url).searchParams;
    return json(await compareRuns(q.get("a"), q.get("b"), q.get("baseline")));
  } catch (err) {
    return errorResponse(err);
  }
}
