import { answer } from "@/lib/http";
import { getRun } from "@/lib/runs";
import { API } from "@/lib/schema";
import { mismatchDistribution } from "@/lib/trainer";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The run's per-sample train/inference mismatch distribution (lib/schema/api-trainer). */
export const GET = answer(API.mismatchDistribution, async ({ params }) =>
  mismatchDistribution(await getRun(params.run)),
);
