import { InvalidInputError } from "@/lib/errors";
import { errorResponse, json } from "@/lib/http";
import { getRun } from "@/lib/runs";
import { rolloutMismatchQuerySchema } from "@/lib/schema";
import { describeZodError } from "@/lib/store";
import { rolloutMismatch } from "@/lib/trainer";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// ?chain=main&offset&limit: exp(|gen − prev|) per chain position from the trained sample the truth
// check joined to this rollout, or why there is none (lib/schema/api-trainer rolloutMismatchSchema).
export async function GET(
  req: Request,
  ctx: RouteContext<"/api/runs/[run]/rollouts/[rollout]/trainer-mismatch">,
): Promise<Response> {
  try {
    const { run: runId, rollout } = await ctx.params;
    const q = rolloutMismatchQuerySchema.safeParse(
      Object.fromEntries(new URL(req.url).searchParams),
    );
    if (!q.success) throw new InvalidInputError(describeZodError(q.error));
    return json(await rolloutMismatch(await getRun(runId), rollout, q.data));
  } catch (err) {
    return errorResponse(err);
  }
}
