// The text the trigram index is given for a rollout: its own text with the repeats cut out. The
// index stores, per trigram, which rows hold it and nothing else (detail=none), and a query asks
// only for rows holding all of its trigrams (./parse), so a row's postings depend on the set of
// its trigrams alone. Agent text repeats most of its trigrams (tool output, prompts, code), and
// FTS5's trigram tokenizer spends about 35 ns on every occurrence; this pass spends about 8 on
// each byte to keep, of the text, spans that hold every distinct trigram once (docs/search.md).
//
// Invariants (lib/index/search/trigram-text.test.ts checks them against FTS5 itself):
// - every trigram FTS5 finds in the text (case folded, as its tokenizer folds) is in the output;
// - every span is a run of the text's own bytes that starts and ends where FTS5's characters do,
//   so no trigram is made that the text lacks, except across the one-byte joins (SEPARATOR) that
//   no query holds;
// - ASCII trigrams are told apart exactly (21 bits each, a bit of a table); a trigram with a byte
//   past ASCII is always kept, so a non-ASCII run is kept whole with two bytes either side, however
//   its bytes read as UTF-8.
// Not responsible for what a rollout's text is (lib/rollout/search-text) or writing the index
// (./store).

import { SEGMENT_SEPARATOR } from "@/lib/rollout";

/** Joins two kept spans: the segment separator (one byte), which the query parser drops (./parse). */
const SEPARATOR = SEGMENT_SEPARATOR.charCodeAt(0);
/**
 * Kept spans this close are joined by the text between them rather than by a separator: its
 * trigrams are the text's own, and a separator makes three trigrams of its own.
 */
const JOIN_GAP = 3;

/** Each byte folded as FTS5's tokenizer folds ASCII (A-Z to a-z); 0x80 marks a byte past ASCII. */
const FOLD = new Uint8Array(256);
for (let c = 0; c < 256; c++) FOLD[c] = c >= 0x80 ? 0x80 : c >= 65 && c <= 90 ? c + 32 : c;

/** One bit per ASCII trigram (7 bits a character), cleared after each text by what it set. */
const seen = new Uint32Array(1 << 16);
let touched = new Int32Array(1 << 12);
let out = new Uint8Array(1 << 16);

/** The bytes the trigram index is given for `text` (a copy; `text` itself when shorter than 3). */
export function trigramText(text: Uint8Array): Uint8Array {
  const n = text.length;
  if (n < 3) return text;
  if (out.length < n + 1) out = new Uint8Array(n * 2);
  let set = 0;
  let o = 0;
  // The span being kept, [from, to); none yet.
  let from = -1;
  let to = -1 - JOIN_GAP;
  const keep = (): void => {
    if (o > 0) out[o++] = SEPARATOR;
    out.set(text.subarray(from, to), o);
    o += to - from;
  };
  // Three folded bytes, the first lowest; each shift brings the next byte in at the top.
  let key =
    ((FOLD[text[0] as number] as number) << 8) | ((FOLD[text[1] as number] as number) << 16);
  for (let i = 0; i + 2 < n; i++) {
    key = (key >>> 8) | ((FOLD[text[i + 2] as number] as number) << 16);
    if ((key & 0x808080) === 0) {
      const bit = (key & 0x7f) | ((key >>> 1) & 0x3f80) | ((key >>> 2) & 0x1fc000);
      const word = bit >>> 5;
      const mask = 1 << (bit & 31);
      if ((seen[word] as number) & mask) continue;
      seen[word] = (seen[word] as number) | mask;
      if (set === touched.length) {
        const grown = new Int32Array(set * 2);
        grown.set(touched);
        touched = grown;
      }
      touched[set++] = word;
    }
    // The trigram at i is new (or not ASCII): bytes i to i + 3 are kept.
    if (i <= to + JOIN_GAP) {
      to = i + 3;
      continue;
    }
    if (from >= 0) keep();
    from = i;
    to = i + 3;
  }
  if (from >= 0) keep();
  for (let k = 0; k < set; k++) seen[touched[k] as number] = 0;
  return out.slice(0, o);
}
