import { InvalidInputError } from "@/lib/errors";
import { answer } from "@/lib/http";
import { getRun } from "@/lib/runs";
import { API, hotspotsQuerySchema } from "@/lib/schema";
import { describeZodError } from "@/lib/store";
import { trainerHotspots } from "@/lib/trainer";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// ?by=mean|tail&limit: where the run's train/inference mismatch concentrates, by token, position
// bucket, turn and MoE layer × expert (lib/schema/api-hotspots; docs/hotspots.md).
export const GET = answer(API.hotspots, async ({ params, query }) => {
  const q = hotspotsQuerySchema.safeParse(Object.fromEntries(query));
  if (!q.success) throw new InvalidInputError(describeZodError(q.error));
  return trainerHotspots(await getRun(params.run), q.data);
});
