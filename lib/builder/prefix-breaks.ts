// The splice check (docs/ledger.md): for every root after the first, the earlier call whose
// cumulative sequence shares the longest prefix with the root's prompt, where they part, and
// whether the two realign a few tokens later (the prompt re-rendered an earlier turn instead of
// splicing its exact ids: drift) or differ from there on (compaction). One home for the inspector's
// prefix breaks and the index's per-rollout splice facts. No text: callers decode.
import type { TokenEntry, TokenIds } from "@/lib/schema";
import type { Build, CallNode } from "./types";

/** Token comparisons per rollout: quadratic in roots, so bounded for rollouts with many. */
const LCP_BUDGET = 50_000_000;

export interface SpliceBreak {
  root: CallNode;
  /** The earlier call sharing the longest prefix; null when there was none (or no budget left). */
  against: CallNode | null;
  /** Shared tokens: the root prompt's first differing position. */
  shared: number;
  kind: "drift" | "compaction";
}

export function findPrefixBreaks(build: Build): SpliceBreak[] {
  const out: SpliceBreak[] = [];
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
    const shared = Math.max(0, bestShared);
    const drift = best !== null && realigns(prompt, best.entry, shared);
    out.push({ root: node, against: best, shared, kind: drift ? "drift" : "compaction" });
  }
  return out;
}

/** A rollout's splice facts: its calls, those whose prompt re-rendered an earlier turn, the first. */
export interface SpliceFacts {
  calls: number;
  rerendered: number;
  /** The first re-rendered call: its id, the chain it starts and the prompt's first differing position. */
  first: { call_id: string; chain: string | null; position: number } | null;
}

export function spliceFactsOf(build: Build): SpliceFacts {
  const drift = findPrefixBreaks(build).filter((b) => b.kind === "drift");
  const head = drift[0];
  const chain = head ? build.chains.find((c) => c.nodes[0] === head.root.index) : undefined;
  return {
    calls: build.nodes.length,
    rerendered: drift.length,
    first: head
      ? {
          call_id: head.root.entry.model_call_id,
          chain: chain?.chain_id ?? null,
          position: head.shared,
        }
      : null,
  };
}

/** The entry's cumulative sequence (prompt, then generation) at `i`. */
const cumAt = (e: TokenEntry, i: number) =>
  i < e.prompt_token_ids.length
    ? e.prompt_token_ids[i]
    : e.generation_token_ids[i - e.prompt_token_ids.length];

const cumLength = (e: TokenEntry) => e.prompt_token_ids.length + e.generation_token_ids.length;

/** After the first difference, do the two sequences line up again within `skew` tokens for `run` tokens? */
function realigns(a: TokenIds, e: TokenEntry, from: number, skew = 8, run = 16): boolean {
  const bLen = cumLength(e);
  for (let da = 0; da <= skew; da++) {
    for (let db = 0; db <= skew; db++) {
      if (da === 0 && db === 0) continue;
      if (from + da + run > a.length || from + db + run > bLen) continue;
      let k = 0;
      while (k < run && a[from + da + k] === cumAt(e, from + db + k)) k++;
      if (k === run) return true;
    }
  }
  return false;
}

/** Length of the common prefix of an entry's cumulative sequence and `tokens`. */
function commonPrefix(e: TokenEntry, tokens: TokenIds): number {
  const p = e.prompt_token_ids;
  const n = Math.min(cumLength(e), tokens.length);
  for (let i = 0; i < n; i++) {
    const t = i < p.length ? p[i] : e.generation_token_ids[i - p.length];
    if (t !== tokens[i]) return i;
  }
  return n;
}
