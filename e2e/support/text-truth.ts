// What text search should find, read from the token files on disk and decoded here with the
// bundled o200k_base tokenizer (gpt-tokenizer), never through the server under test: each
// rollout's main chain (the heaviest root-to-leaf path, ./fixture-truth) as search indexes it, each
// call's own prompt tail, then its generation, each with its first token's position on the chain.
import { decode } from "gpt-tokenizer/encoding/o200k_base";
import {
  heaviestChain,
  linkByPrefix,
  readEntries,
  sideCallPatterns,
  storedRollouts,
} from "./fixture-truth";

export interface TextSegment {
  kind: "input" | "generated";
  call: string;
  /** The segment's first token on the main chain. */
  pos: number;
  text: string;
  ids: number[];
}

/** The main chain's text of one rollout, segment by segment, in chain order. */
export function mainChainText(run: string, rollout: string): TextSegment[] {
  const chain = heaviestChain(linkByPrefix(readEntries(run, rollout), sideCallPatterns(run)));
  const out: TextSegment[] = [];
  let pos = 0;
  chain.forEach((c, k) => {
    const inherited = k === 0 ? 0 : chain[k - 1]!.cum.length;
    const own = c.entry.prompt_token_ids.slice(inherited);
    const call = c.entry.model_call_id;
    out.push({ kind: "input", call, pos, text: decode(own), ids: own });
    pos += own.length;
    const gen = c.entry.generation_token_ids;
    out.push({ kind: "generated", call, pos, text: decode(gen), ids: gen });
    pos += c.entry.generation_token_ids.length;
  });
  return out;
}

/** A rollout's first hit: its segment, and the chain position of the token the match starts in. */
export type TextHitTruth = TextSegment & { matchPos: number };

/** Each stored rollout whose main-chain text holds `phrase` (case ignored), with its first hit. */
export function rolloutsWithText(run: string, phrase: string): Map<string, TextHitTruth> {
  const needle = phrase.toLowerCase();
  const out = new Map<string, TextHitTruth>();
  for (const id of storedRollouts(run)) {
    const hit = mainChainText(run, id).find((s) => s.text.toLowerCase().includes(needle));
    if (!hit) continue;
    // The first token whose text, with the ones before it, reaches past the match's start.
    const at = hit.text.toLowerCase().indexOf(needle);
    let k = 0;
    while (k < hit.ids.length && decode(hit.ids.slice(0, k + 1)).length <= at) k++;
    out.set(id, { ...hit, matchPos: hit.pos + k });
  }
  return out;
}
