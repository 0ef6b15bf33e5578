// per_request (docs/builder.md §4): every call is its own chain req-0, req-1, ... in processing
// order, with no interstitials. Single-response delivery rejects it; views use it per call.
import type { TokenEntry } from "@/lib/schema";
import { compareProcessingOrder } from "./prefix-merging";
import type { Build, CallNode } from "./types";

export function buildPerRequest(entries: readonly TokenEntry[]): Build {
  const sorted = [...entries].sort(compareProcessingOrder);
  const nodes: CallNode[] = sorted.map((entry, index) => ({
    index,
    entry,
    parent: -1,
    link: "root",
    fallback: null,
    candidates: [],
    children: [],
    cumLen: entry.prompt_token_ids.length + entry.generation_token_ids.length,
    quarantine: null,
    retryGroup: -1,
  }));
  const chains = nodes.map((n) => ({
    chain_id: `req-${n.index}`,
    nodes: [n.index],
    generated: n.entry.generation_token_ids.length,
  }));
  let captured = 0;
  for (const n of nodes) captured += n.entry.generation_token_ids.length;
  return {
    nodes,
    chains,
    mainIndex: chains.length > 0 ? 0 : -1,
    quarantined: [],
    retryGroups: [],
    notes: {
      builder: "per_request",
      roots: nodes.length,
      chains: chains.length,
      generated_tokens_captured: captured,
      generated_tokens_delivered: 0,
      delivered_fraction: 0,
      unresolved_retries: [],
    },
  };
}
