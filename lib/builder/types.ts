// Shapes the builder produces. Calls are addressed by their node index (processing order),
// so views and flattening never search by id in a loop.
import type { TokenEntry } from "@/lib/schema";

/** How a call's parent was found. */
export type ParentLink =
  | "root" // no recorded parent accepted and no cumulative sequence is a prefix of the prompt
  | "recorded" // recorded parent_call_id, verified by digest (seed profile)
  | "inferred" // the unique longest cumulative prefix
  | "ambiguous"; // several identical longest prefixes: attached to the first, quarantined

/** Why a recorded parent link was not used (seed profile); inference ran instead. */
export type ParentFallback = "parent_call_id_missing" | "parent_digest_mismatch";

export type QuarantineReason = "ambiguous_parent" | "retry_dropped";

export interface CallNode {
  index: number;
  entry: TokenEntry;
  parent: number; // node index, -1 for roots
  link: ParentLink;
  fallback: ParentFallback | null;
  /** Node indices sharing the longest prefix when the link is ambiguous. */
  candidates: number[];
  children: number[];
  cumLen: number;
  quarantine: QuarantineReason | null;
  /** Index into Build.retryGroups, -1 when the call is in none. */
  retryGroup: number;
}

export interface RetryGroup {
  parent: number; // -1: the roots group
  members: number[];
  kept: number[];
  /** No member had a (qualifying) child: the smallest id was kept and every member is reported. */
  unresolved: boolean;
}

export interface Chain {
  chain_id: string;
  nodes: number[]; // root first
  generated: number;
}

export interface BuildNotes {
  builder: "prefix_merging" | "per_request";
  roots: number;
  chains: number;
  generated_tokens_captured: number;
  generated_tokens_delivered: number;
  delivered_fraction: number;
  unresolved_retries: string[];
  empty_generation_calls?: string[];
  parent_link_fallbacks?: Partial<Record<ParentFallback, number>>;
}

export interface Build {
  nodes: CallNode[];
  /** Chains in walk order; `main` is at `mainIndex` (-1 when there is no chain). */
  chains: Chain[];
  mainIndex: number;
  /** Ambiguous-parent quarantines in processing order, then retry losers in group order. */
  quarantined: string[];
  retryGroups: RetryGroup[];
  notes: BuildNotes;
}

export interface BuilderOptions {
  /** Follow `parent_call_id` when its digest verifies (seed) or always infer (gym-v1). */
  recordedParents: boolean;
  /** Exclude calls with no generated tokens before chaining (gym-v1). */
  dropEmptyGenerations: boolean;
  /** Which retry members count as extended: any child (seed) or a non-quarantined child (gym-v1). */
  retryKeep: "any_child" | "non_quarantined_child";
  /** Chain order: depth-first from roots (seed) or one chain per leaf in processing order (gym-v1). */
  walk: "depth_first" | "leaves";
  /** Main chain: most generated tokens (seed) or earliest root created_at (gym-v1). */
  mainRule: "generated_mass" | "earliest_root";
}
