import { runHealth } from "@/lib/health/run-health";
import { errorResponse } from "@/lib/http/errors";
import { json } from "@/lib/http/params";
import { getRun } from "@/lib/runs/runs-root";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export async function GET(
  _req: Request,
  ctx: RouteContext<"/api/runs/[run]/health">,
): Promise<Response> {
  try {
    return json(await runHealth(await getRun((await ctx.params).run)));
  } catch (err) {
    return errorResponse(err);
  }
}
