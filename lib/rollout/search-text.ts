// What search indexes of one rollout: each main-chain call's own text (the prompt tail its parent
// did not already hold, then its generation, each token once: the chain as the trainer sees it),
// and the body of every failed model call, decoded with the run's tokenizer and joined into one
// text with a separator no query can hold. Each segment keeps its call, kind and token range, so
// a match is placed. Other chains, side calls and quarantined calls are not indexed
// (docs/search.md). Not responsible for storing or querying it (lib/index/search).
import { deflateRawSync } from "node:zlib";
import type { Verdict } from "@/lib/builder";
import type { CaptureExchange, SearchText, TextKind, TextSegment } from "@/lib/schema";
import { isFailedExchange } from "@/lib/severity";
import { textOf, type TokenDecoder } from "@/lib/tokens";
import { inheritedLengths } from "./facts";

/** Search text as it reaches the index: `packed` is its body deflated on the worker that made it. */
export type IndexedText = SearchText & { packed?: Uint8Array };

/** Deflates the body where the text is made, so the index's thread only writes it. */
export const packSearchText = (text: SearchText): IndexedText => ({
  ...text,
  packed: deflateRawSync(text.body, { level: 1 }),
});

/** Between segments: a control character the query parser drops, so no match spans two. */
export const SEGMENT_SEPARATOR = "\u0001";

/** The rollout's searchable text; null when nothing is there to index. */
export function searchTextOf(
  verdict: Verdict,
  exchanges: readonly CaptureExchange[],
  decoder: TokenDecoder,
): SearchText | null {
  const segments: TextSegment[] = [];
  const parts: string[] = [];
  let at = 0;
  const add = (kind: TextKind, call: string, start: number, tokens: number, text: string) => {
    if (text === "") return;
    segments.push([kind, call, start, tokens, at]);
    parts.push(text);
    at += text.length + SEGMENT_SEPARATOR.length;
  };
  const b = verdict.build;
  const main = b && b.mainIndex >= 0 ? b.chains[b.mainIndex] : undefined;
  if (b && main) {
    const inherited = inheritedLengths(verdict);
    let pos = 0;
    for (const n of main.nodes) {
      const e = (b.nodes[n] as (typeof b.nodes)[number]).entry;
      const own = e.prompt_token_ids.slice(inherited.get(e.model_call_id) ?? 0);
      add("i", e.model_call_id, pos, own.length, textOf(decoder, own).text);
      pos += own.length;
      const gen = e.generation_token_ids;
      add("g", e.model_call_id, pos, gen.length, textOf(decoder, gen).text);
      pos += gen.length;
    }
  }
  for (const x of exchanges)
    if (isFailedExchange(x))
      add("e", x.model_call_id, -1, 0, x.response_raw ?? JSON.stringify(x.response ?? null));
  return segments.length === 0 ? null : { body: parts.join(SEGMENT_SEPARATOR), segments };
}
