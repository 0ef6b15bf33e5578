// What search indexes of one rollout: each main-chain call's own text (the prompt tail its parent
// did not already hold, then its generation, each token once: the chain as the trainer sees it),
// and the body of every failed model call, decoded with the run's tokenizer and joined into one
// UTF-8 text with a separator no query can hold, deflated where it is made (a store worker) when it
// is short, so the index's thread only writes it. Each segment keeps its call, kind, token range
// and the byte where it starts, so a match is placed. Other chains, side calls and quarantined
// calls are not indexed (docs/search.md). Not responsible for storing or querying it
// (lib/index/search).
import type { Verdict } from "@/lib/builder";
import type { CaptureExchange, SearchText, TextKind } from "@/lib/schema";
import { isFailedExchange } from "@/lib/severity";
import { Utf8Text, type TokenDecoder } from "@/lib/tokens";
import { inheritedLengths } from "./facts";
import { rawDeflate } from "./raw-deflate";

/**
 * Search text as the index keeps it: its UTF-8 bytes (deflated or not), their count, its segments
 * as the JSON the index stores (made here: one string crosses from the worker, not an array each).
 */
export interface IndexedText {
  body: Uint8Array;
  /** The body is the bytes raw-deflated (short text) rather than the bytes themselves. */
  deflated: boolean;
  bytes: number;
  segs: string;
  /** False for text whose trigrams barely repeat: a query checks it directly (docs/search.md). */
  trigrams: boolean;
}

/**
 * Text of at least this many bytes is looked at for how much its trigrams repeat, over this many
 * bytes at its middle (a fixed window: the share of distinct trigrams falls as text grows).
 */
const WINDOW_BYTES = 4096;
/**
 * Past this share of distinct byte trigrams in the window, text is not trigram-indexed. Measured
 * on 4 kB: prose, code and logs 0.34-0.39 (agent text 0.1-0.2), random token ids 0.7, base64 0.95.
 * Such text costs the index a posting per trigram and narrows a query almost nothing.
 */
const DENSE_SHARE = 0.5;
/** Sixteen slots per sampled trigram, so few distinct ones are lost to collisions. */
const SLOTS = 1 << 16;
const stamps = new Uint32Array(SLOTS);
let stamp = 0;

/** Whether text's trigrams repeat enough to index: distinct hashed byte trigrams of its middle. */
function worthTrigrams(bytes: Uint8Array): boolean {
  if (bytes.length < WINDOW_BYTES) return true;
  const from = (bytes.length - WINDOW_BYTES) >> 1;
  if (++stamp === 0xffffffff) stamps.fill((stamp = 0));
  let distinct = 0;
  for (let i = from; i + 2 < from + WINDOW_BYTES; i++) {
    const v =
      (bytes[i] as number) | ((bytes[i + 1] as number) << 8) | ((bytes[i + 2] as number) << 16);
    const h = Math.imul(v, 0x9e3779b1) >>> 16;
    if (stamps[h] !== stamp) {
      stamps[h] = stamp;
      distinct++;
    }
  }
  return distinct / (WINDOW_BYTES - 2) <= DENSE_SHARE;
}

/**
 * Text shorter than this is deflated. Short text's trigram index is about its own size (few
 * trigrams repeat), so the text must shrink to keep the two within 1.5× of it; longer text's index
 * is a fraction of it (0.12× on 5 kB of agent text), and deflating it would cost the index about a
 * tenth of its time (docs/search.md).
 */
const DEFLATE_BELOW = 4096;

/** Between segments: a control character the query parser drops, so no match spans two. */
export const SEGMENT_SEPARATOR = "\u0001";
const SEPARATOR_BYTE = 1;

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
    if (segments.length > 0) text.appendByte(SEPARATOR_BYTE);
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
      const from = Math.min(inherited.get(e.model_call_id) ?? 0, ids.length);
      add("i", e.model_call_id, pos, ids.length - from, () => text.appendIds(decoder, ids, from));
      pos += ids.length - from;
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
  const deflated = bytes.length < DEFLATE_BELOW;
  return {
    // A copy of exact size: zlib's result is a view of a 16 kB buffer and the text's a view of a
    // shared one; a message to the index's thread would copy either whole.
    body: deflated ? rawDeflate(bytes) : bytes.slice(),
    deflated,
    bytes: bytes.length,
    segs: JSON.stringify(segments),
    trigrams: worthTrigrams(bytes),
  };
}

/** The text as index shards write it (JSON: the body in base64). */
export const searchTextJson = (t: IndexedText): SearchText => ({
  body: Buffer.from(t.body).toString("base64"),
  deflated: t.deflated,
  bytes: t.bytes,
  segments: JSON.parse(t.segs) as SearchText["segments"],
  trigrams: t.trigrams,
});

/** The text a shard wrote, as the index keeps it. */
export const searchTextOfJson = (j: SearchText): IndexedText => ({
  body: Buffer.from(j.body, "base64"),
  deflated: j.deflated,
  bytes: j.bytes,
  segs: JSON.stringify(j.segments),
  trigrams: j.trigrams,
});
