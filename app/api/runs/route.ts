import { describeRoot } from "@/lib/health";
import { answer } from "@/lib/http";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = answer(API.runs, async () => ({ runs: await describeRoot() }));
