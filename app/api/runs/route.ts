import { describeRuns } from "@/lib/health";
import { answer } from "@/lib/http";
import { listRuns } from "@/lib/runs";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = answer(API.runs, async () => ({ runs: await describeRuns(await listRuns()) }));
