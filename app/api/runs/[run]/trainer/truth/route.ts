import { errorResponse } from "@/lib/http/errors";
import { json } from "@/lib/http/params";
import { getRun } from "@/lib/runs/runs-root";
import { trainerTruth } from "@/lib/trainer/truth-check";

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
