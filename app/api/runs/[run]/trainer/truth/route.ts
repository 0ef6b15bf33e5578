import { answer } from "@/lib/http";
import { getRun } from "@/lib/runs";
import { API } from "@/lib/schema";
import { trainerTruth } from "@/lib/trainer";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The truth check of the run's NeMo-RL step logs against its capture (lib/schema/api-trainer). */
export const GET = answer(API.truth, async ({ params }) => trainerTruth(await getRun(params.run)));
