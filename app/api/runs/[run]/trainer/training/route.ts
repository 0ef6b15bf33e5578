import { answer } from "@/lib/http";
import { getRun } from "@/lib/runs";
import { API } from "@/lib/schema";
import { runTraining } from "@/lib/trainer";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The run's training section: NeMo-RL's rollout metrics per step, run facts, loggers found. */
export const GET = answer(API.training, async ({ params }) =>
  runTraining(await getRun(params.run)),
);
