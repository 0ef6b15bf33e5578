import { InvalidInputError } from "@/lib/errors";
import { answer } from "@/lib/http";
import { getRun } from "@/lib/runs";
import { API, rolloutMismatchQuerySchema } from "@/lib/schema";
import { describeZodError } from "@/lib/store";
import { rolloutMismatch } from "@/lib/trainer";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// ?chain=main&offset&limit: exp(|gen − prev|) per chain position from the trained sample the truth
// check joined to this rollout, or why there is none (lib/schema/api-trainer rolloutMismatchSchema).
export const GET = answer(API.trainerMismatch, async ({ params, query }) => {
  const q = rolloutMismatchQuerySchema.safeParse(Object.fromEntries(query));
  if (!q.success) throw new InvalidInputError(describeZodError(q.error));
  return rolloutMismatch(await getRun(params.run), params.rollout, q.data);
});
