import { runHealth } from "@/lib/health";
import { errorResponse, json } from "@/lib/http";
import { getRun } from "@/lib/runs";

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
