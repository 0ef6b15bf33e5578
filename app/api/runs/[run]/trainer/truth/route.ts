import { errorResponse, json } from "@/lib/http";
import { getRun } from "@/lib/runs";
import { trainerTruth } from "@/lib/trainer";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The truth check of the run's NeMo-RL step logs against its capture (lib/schema/api-trainer). */
export async function GET(
  _req: Request,
  ctx: RouteContext<"/api/runs/[run]/trainer/truth">,
): Promise<Response> {
  try {
    return json(await trainerTruth(await getRun((await ctx.params).run)));
  } catch (err) {
    return errorResponse(err);
  }
}
