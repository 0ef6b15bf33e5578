import Link from "next/link";
import { DiffRows } from "@/components/diff/diff-rows";
import { DiffSides, FirstDivergence } from "@/components/diff/diff-sides";
import { diffRollouts } from "@/lib/diff";
import { pageAnswer, profileParam } from "@/lib/http";
import { parseAdvantageRule } from "@/lib/runs";

export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (typeof v === "string" && v !== "" ? v : null);

/** Two rollouts side by side (docs/pages.md "The diff page"): `a`, `b` as RUN/ROLLOUT. */
export default async function DiffPage({ searchParams }: { searchParams: Promise<Search> }) {
  const q = await searchParams;
  const ask = Object.fromEntries(
    (
      ["a", "b", "chain", "profile", "profile_a", "profile_b", "baseline", "normalize"] as const
    ).flatMap((k) => {
      const v = one(q[k]);
      return v === null ? [] : [[k, v]];
    }),
  ) as Record<string, string>;
  const d = await pageAnswer(
    (async () =>
      diffRollouts({
        a: one(q.a),
        b: one(q.b),
        chain: one(q.chain),
        profileA: profileParam(one(q.profile_a) ?? one(q.profile)),
        profileB: profileParam(one(q.profile_b) ?? one(q.profile)),
        rule: parseAdvantageRule(new URLSearchParams(ask)),
      }))(),
  );
  if ("error" in d)
    return (
      <>
        <h1>Diff two rollouts</h1>
        <div className="error-box" data-testid="diff-error">
          {d.error}
        </div>
        <p>
          Open a run&apos;s GRPO groups and pick two members, or give{" "}
          <code>/diff?a=RUN/ROLLOUT&amp;b=RUN/ROLLOUT</code>.
        </p>
      </>
    );
  return (
    <>
      <p className="crumbs">
        <Link href="/">runs</Link> / diff
      </p>
      <h1 data-testid="diff-title">
        {d.a.run}/{d.a.rollout} <span className="muted">vs</span> {d.b.run}/{d.b.rollout}
      </h1>
      <DiffSides d={d} />
      <FirstDivergence d={d} />
      <DiffRows d={d} ask={ask} />
    </>
  );
}
