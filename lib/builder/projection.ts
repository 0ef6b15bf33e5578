// Projection of the main chain to contiguous Responses output items (docs/capture-format.md §7):
// which item carries each call's token arrays, and the NeMo-RL prefix-contiguity check.
// Items reference the flattened sequence by prompt length; `materializeItems` builds the arrays.
import type { Build, CallNode, Chain } from "./types";

export interface ProjectedItem {
  item: Record<string, unknown>;
  node: number;
  /** Null for content-only items; else the carrier's prompt is flat[0:promptLen]. */
  promptLen: number | null;
  carrier: boolean;
}

export interface Projection {
  items: ProjectedItem[];
  usage: { input_tokens: number; output_tokens: number };
}

export class ProjectionError extends Error {
  constructor(
    readonly errorType: "ValueError" | "AssertionError",
    message: string,
  ) {
    super(message);
  }
}

const TOKEN_FIELDS = [
  "prompt_token_ids",
  "generation_token_ids",
  "generation_log_probs",
  "routed_experts",
];

function carrierIndices(
  items: ReadonlyArray<Record<string, unknown>>,
  tokenItemIndex: number | null,
): number[] {
  if (tokenItemIndex !== null && tokenItemIndex >= 0 && tokenItemIndex < items.length)
    return [tokenItemIndex];
  const inline: number[] = [];
  items.forEach((item, i) => {
    if (item.generation_token_ids !== undefined && item.generation_token_ids !== null)
      inline.push(i);
  });
  return inline.length > 0 ? inline : [items.length - 1];
}

export function projectChain(build: Build, chain: Chain): Projection {
  const items: ProjectedItem[] = [];
  let running = 0;
  let inputTokens: number | null = null;
  let outputTokens = 0;
  let prevCumLen = -1;
  for (const i of chain.nodes) {
    const node = build.nodes[i] as CallNode;
    const e = node.entry;
    const promptLen = e.prompt_token_ids.length;
    running += prevCumLen < 0 ? promptLen : Math.max(0, promptLen - prevCumLen);
    prevCumLen = node.cumLen;
    const source = e.output_items.length > 0 ? e.output_items : [{ type: "message" }];
    const carriers = new Set(
      carrierIndices(source, e.output_items.length > 0 ? e.token_item_index : 0),
    );
    source.forEach((raw, k) => {
      const carrier = carriers.has(k);
      const item: Record<string, unknown> = { ...raw };
      if (!carrier) {
        items.push({ item, node: i, promptLen: null, carrier });
        return;
      }
      for (const f of TOKEN_FIELDS) delete item[f];
      if (inputTokens === null) inputTokens = running;
      outputTokens += e.generation_token_ids.length;
      items.push({ item, node: i, promptLen: running, carrier });
    });
    running += e.generation_token_ids.length;
  }
  return { items, usage: { input_tokens: inputTokens ?? 0, output_tokens: outputTokens } };
}

/** Throws ProjectionError when an item's prompt does not start with everything seen before it. */
export function checkContiguity(
  build: Build,
  projection: Projection,
  wording: "seed" | "gym-v1",
): void {
  let seen = 0;
  projection.items.forEach((p, k) => {
    if (p.promptLen === null) return;
    if (p.promptLen < seen) {
      const what =
        wording === "seed"
          ? "projection violates NeMo-RL prefix contiguity"
          : "projection is not prefix-contiguous";
      throw new ProjectionError(
        "AssertionError",
        `${what}: output item ${k} does not extend the ${seen} tokens before it`,
      );
    }
    seen = p.promptLen + (build.nodes[p.node] as CallNode).entry.generation_token_ids.length;
  });
}

/** The projected items with their token arrays, as they would land in `response.output`. */
export function materializeItems(
  build: Build,
  projection: Projection,
  flatTokens: readonly number[],
): Array<Record<string, unknown>> {
  return projection.items.map((p) => {
    if (p.promptLen === null) return p.item;
    const e = (build.nodes[p.node] as CallNode).entry;
    const out: Record<string, unknown> = {
      ...p.item,
      prompt_token_ids: flatTokens.slice(0, p.promptLen),
      generation_token_ids: [...e.generation_token_ids],
      generation_log_probs: [...e.generation_log_probs],
    };
    if (e.routed_experts !== null) out.routed_experts = e.routed_experts;
    return out;
  });
}
