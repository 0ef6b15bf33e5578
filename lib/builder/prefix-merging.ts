// prefix_merging (docs/builder.md §2): links calls into a tree by recorded
// parents or longest cumulative token prefix, resolves retries, walks chains and picks main.
// Pure and iterative; does not classify side calls, flatten, project or decide masking.
import type { TokenEntry, TokenIds } from "@/lib/schema";
import { tokenDigest } from "./digest";
import { cumulativeEquals, PrefixIndex, type PromptScan } from "./prefix-index";
import { resolveRetries } from "./retries";
import { selectMain, walkChains } from "./chains";
import { roundHalfEven } from "./round";
import type { Build, BuilderOptions, CallNode, ParentFallback } from "./types";
import { compareCodePoints } from "./code-points";

export function compareProcessingOrder(a: TokenEntry, b: TokenEntry): number {
  const d = a.prompt_token_ids.length - b.prompt_token_ids.length;
  if (d !== 0) return d;
  return compareCodePoints(a.model_call_id, b.model_call_id);
}

export function buildPrefixMerging(entries: readonly TokenEntry[], options: BuilderOptions): Build {
  const emptyGenerationCalls: string[] = [];
  let kept: TokenEntry[] = [...entries];
  if (options.dropEmptyGenerations) {
    kept = [];
    for (const e of entries) {
      if (e.generation_token_ids.length === 0) emptyGenerationCalls.push(e.model_call_id);
      else kept.push(e);
    }
  }
  kept.sort(compareProcessingOrder);

  const { nodes, scans, quarantined, fallbacks } = attachParents(kept, options.recordedParents);
  const { groups, unresolvedRetries } = resolveRetries(
    nodes,
    scans,
    options.retryKeep,
    quarantined,
  );
  const chains = walkChains(nodes, options.walk);
  const mainIndex = selectMain(nodes, chains, options.mainRule);

  let captured = 0;
  for (const n of nodes) captured += n.entry.generation_token_ids.length;
  const delivered = mainIndex >= 0 ? (chains[mainIndex]?.generated ?? 0) : 0;
  let roots = 0;
  for (const n of nodes) if (n.parent < 0) roots++;

  const notes: Build["notes"] = {
    builder: "prefix_merging",
    roots,
    chains: chains.length,
    generated_tokens_captured: captured,
    generated_tokens_delivered: delivered,
    delivered_fraction: captured > 0 ? roundHalfEven(delivered / captured, 4) : 0,
    unresolved_retries: unresolvedRetries,
  };
  if (options.dropEmptyGenerations) notes.empty_generation_calls = emptyGenerationCalls;
  if (Object.keys(fallbacks).length > 0) notes.parent_link_fallbacks = fallbacks;
  return { nodes, chains, mainIndex, quarantined, retryGroups: groups, notes };
}

interface Attached {
  nodes: CallNode[];
  scans: PromptScan[];
  quarantined: string[];
  fallbacks: Partial<Record<ParentFallback, number>>;
}

function attachParents(sorted: readonly TokenEntry[], recordedParents: boolean): Attached {
  const index = new PrefixIndex();
  const nodes: CallNode[] = [];
  const scans: PromptScan[] = [];
  const quarantined: string[] = [];
  const fallbacks: Partial<Record<ParentFallback, number>> = {};
  const processedById = new Map<string, number>();

  for (const entry of sorted) {
    const prompt = entry.prompt_token_ids;
    const node: CallNode = {
      index: nodes.length,
      entry,
      parent: -1,
      link: "root",
      fallback: null,
      candidates: [],
      children: [],
      cumLen: prompt.length + entry.generation_token_ids.length,
      quarantine: null,
      retryGroup: -1,
    };

    let recordedParent = -1;
    if (recordedParents && entry.parent_call_id !== null) {
      const claimed = processedById.get(entry.parent_call_id);
      if (claimed === undefined) node.fallback = "parent_call_id_missing";
      else if (verifiesAsParent(nodes[claimed] as CallNode, prompt)) recordedParent = claimed;
      else node.fallback = "parent_digest_mismatch";
      if (node.fallback) fallbacks[node.fallback] = (fallbacks[node.fallback] ?? 0) + 1;
    }

    const scan = index.scan(prompt, recordedParent < 0);
    if (recordedParent >= 0) {
      node.parent = recordedParent;
      node.link = "recorded";
    } else if (scan.matches.length > 0) {
      node.parent = scan.matches[0] as number;
      node.link = scan.matches.length > 1 ? "ambiguous" : "inferred";
      if (scan.matches.length > 1) {
        node.candidates = scan.matches;
        node.quarantine = "ambiguous_parent";
        quarantined.push(entry.model_call_id);
      }
    }

    // Index ids equal node ids because every node is inserted once, in order.
    index.insert({ prompt, generation: entry.generation_token_ids }, scan);
    if (node.parent >= 0) (nodes[node.parent] as CallNode).children.push(node.index);
    processedById.set(entry.model_call_id, node.index);
    nodes.push(node);
    scans.push(scan);
  }
  return { nodes, scans, quarantined, fallbacks };
}

/**
 * A recorded parent is accepted when its cumulative length fits in the child's prompt and the
 * child's prompt prefix digests to the parent's recorded digest (or, with no recorded digest,
 * equals the parent's cumulative sequence: equal digests of a recomputation mean equal tokens).
 */
function verifiesAsParent(parent: CallNode, childPrompt: TokenIds): boolean {
  const L = parent.entry.cum_len ?? parent.cumLen;
  if (L > childPrompt.length) return false;
  if (parent.entry.digest !== null) return tokenDigest(childPrompt, 0, L) === parent.entry.digest;
  const seq = {
    prompt: parent.entry.prompt_token_ids,
    generation: parent.entry.generation_token_ids,
  };
  return cumulativeEquals(seq, childPrompt, L);
}
