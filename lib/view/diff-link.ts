// The diff page's address for two rollouts (docs/pages.md "The diff page"): `a` and `b` as
// RUN/ROLLOUT, then what narrows it (the chain, each side's builder profile, the open message,
// the groups view's advantage rule).
// Pure; not responsible for what the page shows (lib/diff).
import { type AdvantageRule, withQuery } from "@/lib/schema";

export interface DiffEnd {
  run: string;
  rollout: string;
  /** The builder profile this side is decided by; the run's own when absent. */
  profile?: string | null;
}

export function diffHref(
  a: DiffEnd,
  b: DiffEnd,
  more: {
    chain?: string | null;
    message?: number | null;
    /** The groups view's advantage rule; the default (leave-one-out, normalised) is no key. */
    rule?: AdvantageRule;
  } = {},
): string {
  return withQuery("/diff", {
    a: `${a.run}/${a.rollout}`,
    b: `${b.run}/${b.rollout}`,
    chain: more.chain === "main" ? null : more.chain,
    profile_a: a.profile,
    profile_b: b.profile,
    message: more.message,
    baseline: more.rule?.baseline === "group_mean" ? "group_mean" : null,
    normalize: more.rule && !more.rule.normalize ? "0" : null,
  });
}
