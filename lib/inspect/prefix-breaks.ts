// Prefix breaks: for every root after the first, the earlier call whose cumulative sequence shares
// the longest prefix with the root's prompt, where they part, the text on both sides, and whether
// the two realign a few tokens later (re-rendering drift) or differ from there on (compaction).
// Bounded work: the prefix comparisons stop after a fixed token budget per rollout.
import type { Build, CallNode } from "@/lib/builder";
import type { TokenEntry, TokenIds, PrefixBreak } from "@/lib/schema";
import type { TokenDecoder } from "@/lib/tokens";

/** Shared tokens shown before the difference, and tokens shown on each side after it. */
const CONTEXT = 16;
const SIDE = 32;
/** Token comparisons per rollout: quadratic in roots, so bounded for rollouts with many. */
const LCP_BUDGET = 50_000_000;

export function prefixBreaks(build: Build, decoder: TokenDecoder | null): PrefixBreak[] {
  const text = (ids: TokenIds) => (decoder ? decoder.decode(Array.from(ids)) : ids.join(" "));
  const out: PrefixBreak[] = [];
  let budget = LCP_BUDGET;
  let seenRoot = false;
  for (const node of build.nodes) {
    if (node.parent >= 0) continue;
    if (!seenRoot) {
      seenRoot = true;
      continue;
    }
    const prompt = node.entry.prompt_token_ids;
    let best: CallNode | null = null;
    let bestShared = -1;
    for (let j = 0; j < node.index && budget > 0; j++) {
      const other = build.nodes[j] as CallNode;
      const shared = commonPrefix(other.entry, prompt);
      budget -= shared + 1;
      if (shared > bestShared) [best, bestShared] = [other, shared];
    }
    const againstSeq = best
      ? [...best.entry.prompt_token_ids, ...best.entry.generation_token_ids]
      : [];
    const shared = Math.max(0, bestShared);
    out.push({
      root_call_id: node.entry.model_call_id,
      against_call_id: best?.entry.model_call_id ?? null,
      shared,
      root_prompt_len: prompt.length,
      against_len: againstSeq.length,
      kind: best && realigns(prompt, againstSeq, shared) ? "drift" : "compaction",
      context: text(prompt.slice(Math.max(0, shared - CONTEXT), shared)),
      root_side: text(prompt.slice(shared, shared + SIDE)),
      against_side: text(againstSeq.slice(shared, shared + SIDE)),
    });
  }
  return out;
}

/** After the first difference, do the two sequences line up again within `skew` tokens for `run` tokens? */
function realigns(a: TokenIds, b: TokenIds, from: number, skew = 8, run = 16): boolean {
  for (let da = 0; da <= skew; da++) {
    for (let db = 0; db <= skew; db++) {
      if (da === 0 && db === 0) continue;
      if (from + da + run > a.length || from + db + run > b.length) continue;
      let k = 0;
      while (k < run && a[from + da + k] === b[from + db + k]) k++;
      if (k === run) return true;
    }
  }
  return false;
}

/** Length of the common prefix of an entry's cumulative sequence (prompt, then generation) and `tokens`. */
function commonPrefix(e: TokenEntry, tokens: TokenIds): number {
  const p = e.prompt_token_ids;
  const g = e.generation_token_ids;
  const n = Math.min(p.length + g.length, tokens.length);
  for (let i = 0; i < n; i++) {
    const t = i < p.length ? p[i] : g[i - p.length];
    if (t !== tokens[i]) return i;
  }
  return n;
}
