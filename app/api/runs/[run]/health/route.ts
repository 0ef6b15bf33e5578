import { runHealth } from "@/lib/health";
import { answer } from "@/lib/http";
import { getRun } from "@/lib/runs";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = answer(API.health, async ({ params }) => runHealth(await getRun(params.run)));
