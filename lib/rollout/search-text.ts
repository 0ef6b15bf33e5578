// What search indexes of one rollout: each main-chain call's own text (the prompt tail its parent
// did not already hold, then its generation, each token once: the chain as the trainer sees it),
// and the body of every failed model call, decoded with the run's tokenizer and joined into one
// UTF-8 text with a separator no query can hold, deflated where it is made (a store worker) so the
// index's thread only writes it. Each segment keeps its call, kind, token range and the byte where
// it starts, so a match is placed. Other chains, side calls and quarantined calls are not indexed
// (docs/search.md). Not responsible for storing or querying it (lib/index/search).
import { deflateRawSync } from "node:zlib";
import type { Verdict } from "@/lib/builder";
import type { CaptureExchange, SearchText, TextKind } from "@/lib/schema";
import { isFailedExchange } from "@/lib/severity";
import { Utf8Text, type TokenDecoder } from "@/lib/tokens";
import { inheritedLengths } from "./facts";

/** Search text as the index keeps it: its UTF-8 bytes deflated, their count, and its segments. */
export interface IndexedText {
  packed: Uint8Array;
  bytes: number;
  segments: SearchText["segments"];
}

/** Between segments: a control character the query parser drops, so no match spans two. */
export const SEGMENT_SEPARATOR = "\u0001";

/** The rollout's searchable text; null when nothing is there to index. */
export function searchTextOf(
  verdict: Verdict,
  exchanges: readonly CaptureExchange[],
  decoder: TokenDecoder,
): IndexedText | null {
  const segments: SearchText["segments"] = [];
  const text = new Utf8Text();
  const add = (kind: TextKind, call: string, start: number, tokens: number, write: () => void) => {
    const mark = text.length;
    if (segments.length > 0) text.appendText(SEGMENT_SEPARATOR);
    const from = text.length;
    write();
    // Nothing written: the separator is taken back.
    if (text.length === from) text.length = mark;
    else segments.push([kind, call, start, tokens, from]);
  };
  const b = verdict.build;
  const main = b && b.mainIndex >= 0 ? b.chains[b.mainIndex] : undefined;
  if (b && main) {
    const inherited = inheritedLengths(verdict);
    let pos = 0;
    for (const n of main.nodes) {
      const e = (b.nodes[n] as (typeof b.nodes)[number]).entry;
      const ids = e.prompt_token_ids;
      const own = ids.slice(inherited.get(e.model_call_id) ?? 0);
      add("i", e.model_call_id, pos, own.length, () => text.appendIds(decoder, own));
      pos += own.length;
      const gen = e.generation_token_ids;
      add("g", e.model_call_id, pos, gen.length, () => text.appendIds(decoder, gen));
      pos += gen.length;
    }
  }
  for (const x of exchanges)
    if (isFailedExchange(x)) {
      const body = x.response_raw ?? JSON.stringify(x.response ?? null);
      add("e", x.model_call_id, -1, 0, () => text.appendText(body));
    }
  if (segments.length === 0) return null;
  const bytes = text.bytes();
  return { packed: deflateRawSync(bytes, { level: 1 }), bytes: bytes.length, segments };
}

/** The text as index shards write it (JSON: the deflated bytes in base64). */
export const searchTextJson = (t: IndexedText): SearchText => ({
  packed: Buffer.from(t.packed).toString("base64"),
  bytes: t.bytes,
  segments: t.segments,
});

/** The text a shard wrote, as the index keeps it. */
export const searchTextOfJson = (j: SearchText): IndexedText => ({
  packed: Buffer.from(j.packed, "base64"),
  bytes: j.bytes,
  segments: j.segments,
});
