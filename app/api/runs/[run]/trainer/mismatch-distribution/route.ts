import { errorResponse, json } from "@/lib/http";
import { getRun } from "@/lib/runs";
import { mismatchDistribution } from "@/lib/trainer";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The run's per-sample train/inference mismatch distribution (lib/schema/api-trainer). */
export async function GET(
  _req: Request,
  ctx: RouteContext<"/api/runs/[run]/trainer/mismatch-distribution">,
): Promise<Response> {
  try {
    return json(await mismatchDistribution(await getRun((await ctx.params).run)));
  } catch (err) {
    return errorResponse(err);
  }
}
