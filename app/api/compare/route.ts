import { compareRuns } from "@/lib/compare";
import { answer } from "@/lib/http";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// `scalar` must be one both runs log; compareRuns answers anything else with the allowed tags.
export const GET = answer(API.compare, ({ query: q }) =>
  compareRuns(q.get("a"), q.get("b"), q.get("baseline"), q.get("scalar")),
);
