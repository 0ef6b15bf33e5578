import { answer, profileParam } from "@/lib/http";
import { findInRollout } from "@/lib/inspect";
import { getRun } from "@/lib/runs";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// ?q=<text>&chain=<sequence>&profile: every match of the literal text (case ignored) in the
// sequence, `main` by default, as token ranges and calls (docs/routes.md).
export const GET = answer(API.find, async ({ params, query: q, signal }) =>
  findInRollout(await getRun(params.run), params.rollout, {
    q: q.get("q") ?? "",
    chain: q.get("chain") || "main",
    profile: profileParam(q.get("profile")),
    signal,
  }),
);
