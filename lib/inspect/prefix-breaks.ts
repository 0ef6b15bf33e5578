// Prefix breaks as the inspector shows them: the builder's splice check (lib/builder
// findPrefixBreaks, the same one the index's splice facts use) with the text on both sides.
import { findPrefixBreaks, type Build } from "@/lib/builder";
import type { TokenIds, PrefixBreak } from "@/lib/schema";
import type { TokenDecoder } from "@/lib/tokens";

/** Shared tokens shown before the difference, and tokens shown on each side after it. */
const CONTEXT = 16;
const SIDE = 32;

export function prefixBreaks(build: Build, decoder: TokenDecoder | null): PrefixBreak[] {
  const text = (ids: TokenIds) => (decoder ? decoder.decode(Array.from(ids)) : ids.join(" "));
  return findPrefixBreaks(build).map(({ root, against, shared, kind }) => {
    const prompt = root.entry.prompt_token_ids;
    const againstSeq = against
      ? [...against.entry.prompt_token_ids, ...against.entry.generation_token_ids]
      : [];
    return {
      root_call_id: root.entry.model_call_id,
      against_call_id: against?.entry.model_call_id ?? null,
      shared,
      root_prompt_len: prompt.length,
      against_len: againstSeq.length,
      kind,
      context: text(prompt.slice(Math.max(0, shared - CONTEXT), shared)),
      root_side: text(prompt.slice(shared, shared + SIDE)),
      against_side: text(againstSeq.slice(shared, shared + SIDE)),
    };
  });
}
