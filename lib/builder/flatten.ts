// Flattening a chain into what the trainer trains on (docs/builder.md §3): the root prompt and every
// interstitial are re-fed (loss mask 0, no log prob), generated tokens are trained (mask 1).
// Segments describe the sequence without copying it, so views can window 200k-token chains.
import type { Build, CallNode, Chain } from "./types";

export type SegmentKind = "prompt" | "interstitial" | "generated";

export interface Segment {
  kind: SegmentKind;
  node: number;
  /** Range in the entry's prompt (prompt, interstitial) or generation (generated) array. */
  from: number;
  to: number;
  /** Position of the segment's first token in the flattened sequence. */
  start: number;
}

export interface FlatChain {
  call_ids: string[];
  token_ids: number[];
  loss_mask: number[];
  log_probs: Array<number | null>;
  spans: Array<[start: number, end: number, model_call_id: string]>;
}

export class FlattenError extends Error {}

export function chainSegments(
  nodes: readonly CallNode[],
  chain: Chain,
): { segments: Segment[]; length: number } {
  const segments: Segment[] = [];
  let length = 0;
  let prevCumLen = -1;
  for (const i of chain.nodes) {
    const node = nodes[i] as CallNode;
    const prompt = node.entry.prompt_token_ids;
    const from = prevCumLen < 0 ? 0 : Math.min(prevCumLen, prompt.length);
    const kind: SegmentKind = prevCumLen < 0 ? "prompt" : "interstitial";
    if (prompt.length > from) {
      segments.push({ kind, node: i, from, to: prompt.length, start: length });
      length += prompt.length - from;
    }
    const gen = node.entry.generation_token_ids.length;
    if (gen > 0) {
      segments.push({ kind: "generated", node: i, from: 0, to: gen, start: length });
      length += gen;
    }
    prevCumLen = node.cumLen;
  }
  return { segments, length };
}

/** Throws FlattenError on the first link whose log-prob count differs from its token count. */
export function validateChain(nodes: readonly CallNode[], chain: Chain): void {
  for (const i of chain.nodes) {
    const e = (nodes[i] as CallNode).entry;
    if (e.generation_log_probs.length !== e.generation_token_ids.length) {
      throw new FlattenError(
        `log-prob/token length mismatch on ${e.model_call_id}: ${e.generation_log_probs.length} vs ${e.generation_token_ids.length}`,
      );
    }
  }
}

export function flattenChain(build: Build, chain: Chain): FlatChain {
  validateChain(build.nodes, chain);
  const { segments, length } = chainSegments(build.nodes, chain);
  const token_ids = new Array<number>(length);
  const loss_mask = new Array<number>(length);
  const log_probs = new Array<number | null>(length);
  const spans: FlatChain["spans"] = [];
  for (const s of segments) {
    const e = (build.nodes[s.node] as CallNode).entry;
    const generated = s.kind === "generated";
    const source = generated ? e.generation_token_ids : e.prompt_token_ids;
    for (let k = s.from, p = s.start; k < s.to; k++, p++) {
      token_ids[p] = source[k] as number;
      loss_mask[p] = generated ? 1 : 0;
      log_probs[p] = generated ? (e.generation_log_probs[k] as number) : null;
    }
    if (generated) spans.push([s.start, s.start + (s.to - s.from), e.model_call_id]);
  }
  const call_ids = chain.nodes.map((i) => (build.nodes[i] as CallNode).entry.model_call_id);
  return { call_ids, token_ids, loss_mask, log_probs, spans };
}
