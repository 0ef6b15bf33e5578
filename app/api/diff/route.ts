import { diffRollouts } from "@/lib/diff";
import { answer, profileParam } from "@/lib/http";
import { parseAdvantageRule } from "@/lib/runs";
import { API } from "@/lib/schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// ?a=RUN/ROLLOUT&b=RUN/ROLLOUT[&chain=main][&message=ROW][&profile=…|&profile_a=…&profile_b=…]:
// the two chains compared (lib/schema/api-diff); `profile_a`/`profile_b` override `profile`;
// `baseline`/`normalize` set the advantage's rule as the groups route's do.
export const GET = answer(API.diff, ({ query: q, signal }) =>
  diffRollouts(
    {
      a: q.get("a"),
      b: q.get("b"),
      chain: q.get("chain"),
      message: q.get("message"),
      profileA: profileParam(q.get("profile_a") || q.get("profile")),
      profileB: profileParam(q.get("profile_b") || q.get("profile")),
      rule: parseAdvantageRule(q),
    },
    signal,
  ),
);
