// A sequence's call parts as the token columns the conversation is split from (same positions as
// the token windows), for the whole sequence or one message's range of it: each token's text
// (a byte-split character decoded once, whole), whether it is special, its mask, log prob and
// call. Pure over ids and a decoder; choosing which parts make a sequence is lib/inspect's job.
import type { TokenDecoder } from "@/lib/tokens";
import type { TokenColumns } from "../chat-template";
import type { PartSegment } from "./build";

export interface SequencePart {
  call: number; // index into the rollout's calls
  kind: PartSegment["kind"];
  part: PartSegment["part"];
  ids: Int32Array;
  logProbs: Float64Array | null;
}

/** The parts' tokens in [start, end) of the sequence, as parts of their own (empty ones dropped). */
export function sliceParts(
  parts: readonly SequencePart[],
  start: number,
  end: number,
): SequencePart[] {
  const out: SequencePart[] = [];
  let at = 0;
  for (const p of parts) {
    const [a, b] = [Math.max(start, at), Math.min(end, at + p.ids.length)];
    if (b > a) {
      const [from, to] = [a - at, b - at];
      const logProbs = p.logProbs?.subarray(from, to) ?? null;
      out.push({ ...p, ids: p.ids.subarray(from, to), logProbs });
    }
    at += p.ids.length;
  }
  return out;
}

/** Columns over the parts, with each part's segment; `local` maps a part's call to its index here. */
export function tokenColumns(
  decoder: TokenDecoder | null,
  parts: readonly SequencePart[],
  local: ReadonlyMap<number, number>,
): { columns: TokenColumns; segments: PartSegment[] } {
  let n = 0;
  for (const p of parts) n += p.ids.length;
  const cols: TokenColumns & { text: string[] } = {
    text: new Array<string>(n),
    special: new Uint8Array(n),
    mask: new Uint8Array(n),
    logProb: new Float64Array(n).fill(NaN),
    call: new Int32Array(n),
  };
  const segments: PartSegment[] = [];
  let at = 0;
  for (const p of parts) {
    const call = local.get(p.call) as number;
    segments.push({ call, kind: p.kind, part: p.part, start: at, length: p.ids.length });
    writeText(decoder, p.ids, cols, at);
    const generated = p.kind === "generated";
    cols.mask.fill(generated ? 1 : 0, at, at + p.ids.length);
    cols.call.fill(call, at, at + p.ids.length);
    if (generated && p.logProbs) cols.logProb.set(p.logProbs, at);
    at += p.ids.length;
  }
  return { columns: cols, segments };
}

/**
 * Each token's text. A character that byte-level BPE split over several tokens is decoded once,
 * whole, onto the first of them (the rest get ""), so message text never shows escaped bytes.
 */
function writeText(
  dec: TokenDecoder | null,
  ids: Int32Array,
  cols: { text: string[]; special: Uint8Array },
  at: number,
): void {
  if (!dec) {
    for (let k = 0; k < ids.length; k++) cols.text[at + k] = `${ids[k]} `;
    return;
  }
  for (let k = 0; k < ids.length;) {
    const piece = dec.piece(ids[k] as number);
    if (piece.kind !== "bytes") {
      cols.text[at + k] = piece.text;
      if (piece.kind === "special") cols.special[at + k] = 1;
      k++;
      continue;
    }
    let j = k + 1;
    while (j < ids.length && dec.piece(ids[j] as number).kind === "bytes") j++;
    cols.text[at + k] = dec.decode(Array.from(ids.subarray(k, j)));
    for (let r = k + 1; r < j; r++) cols.text[at + r] = "";
    k = j;
  }
}
