// A rollout's routed-experts fallback over its main chain's calls (docs/experts.md): fallback and
// missing routes over expected routes (P + G − 1 per call), null when no call of the chain carries
// routes. The one reading for the summary row and the per-step series (lib/health sums the counts).
import type { Verdict } from "@/lib/builder";
import { callRoutes, fallbackFraction, type RouteCount } from "@/lib/experts";

export interface ExpertFacts {
  expert_fallback_fraction: number | null;
  /** The counts behind the fraction, so a step's fraction weighs its rollouts by routes. */
  expert_routes: RouteCount | null;
}

export function expertFactsOf(v: Verdict): ExpertFacts {
  const build = v.build;
  const main = build ? build.chains[build.mainIndex] : undefined;
  if (!build || !main) return { expert_fallback_fraction: null, expert_routes: null };
  const calls = main.nodes.map((n) => {
    const e = build.nodes[n]?.entry;
    const prompt = e?.prompt_token_ids.length ?? 0;
    const generated = e?.generation_token_ids.length ?? 0;
    return { routes: callRoutes(e?.routed_experts, prompt, generated), prompt, generated };
  });
  const { fraction, count } = fallbackFraction(calls);
  return {
    expert_fallback_fraction: fraction === null ? null : roundTo(fraction, 6),
    expert_routes: fraction === null ? null : count,
  };
}

const roundTo = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
