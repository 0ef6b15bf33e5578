// Windows of a flattened sequence: a chain as the trainer sees it (root prompt and interstitials
// re-fed with mask 0, generations with mask 1 and their log probs), or one call as the model saw it
// (everything before its generation is input). Only the requested window is decoded and sent; the
// segments (call boundaries) only with the window that opens a sequence. Also low-prob matches.
// An id outside 0 … 2^31−1 is sent as OUTSIDE_ID, its exact digits in `outside`, marked in words.
import {
  InvalidInputError,
  UnknownCallError,
  UnknownChainError,
  UnknownEntityError,
} from "@/lib/errors";
import type {
  LowProbMatches,
  SegmentKind,
  SegmentedWindow,
  TokenSegment,
  TokenWindow,
  WindowPiece,
} from "@/lib/schema";
import type { TokenDecoder } from "@/lib/tokens";
import { sequenceOf, TOKEN_WINDOW, windowStart } from "@/lib/view";
import { OUTSIDE_ID, type CallTokens, type ExactIds, type RolloutModel } from "./model";

export interface Part {
  call: number;
  kind: SegmentKind;
  ids: Int32Array;
  exact: ExactIds;
  logProbs: Float64Array | null; // generated parts only
  start: number;
}

/** The most tokens one request gets: a window is decoded and sent whole. */
const MAX_WINDOW = 5000;

/** The parts of `main`, a chain id, or `call:<model_call_id>`, in order, with their start positions. */
export function sequenceParts(model: RolloutModel, sequence: string): Part[] {
  const parts: Part[] = [];
  let start = 0;
  const push = (
    call: number,
    kind: SegmentKind,
    ids: Int32Array,
    exact: ExactIds,
    logProbs: Float64Array | null,
  ) => {
    if (ids.length === 0) return;
    parts.push({ call, kind, ids, exact, logProbs, start });
    start += ids.length;
  };
  if (sequence.startsWith("call:")) {
    const idx = model.callIndex.get(sequence.slice(5));
    if (idx === undefined)
      throw new UnknownCallError(
        `no call ${sequence.slice(5)} in rollout ${model.view.rollout_id}`,
      );
    const path: number[] = [];
    for (let i = idx; i >= 0; i = (model.tokens[i] as CallTokens).parent) path.push(i);
    path.reverse();
    path.forEach((c, k) => {
      const t = model.tokens[c] as CallTokens;
      const last = k === path.length - 1;
      push(c, last ? (k === 0 ? "prompt" : "interstitial") : "inherited", t.own, t.exact.own, null);
      push(c, last ? "generated" : "inherited", t.gen, t.exact.gen, last ? t.logProbs : null);
    });
    return parts;
  }
  const calls = model.chainCalls.get(sequence);
  if (!calls)
    throw new UnknownChainError(
      `no chain ${sequence} in rollout ${model.view.rollout_id}${model.chainCalls.size === 0 ? " (the rollout has no chain)" : ""}`,
    );
  calls.forEach((c, k) => {
    const t = model.tokens[c] as CallTokens;
    push(c, k === 0 ? "prompt" : "interstitial", t.own, t.exact.own, null);
    push(c, "generated", t.gen, t.exact.gen, t.logProbs);
  });
  return parts;
}

export function parseCount(
  value: string | null,
  name: string,
  fallback: number,
  max: number,
): number {
  if (value === null || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidInputError(
      `${name} must be a non-negative integer, got ${JSON.stringify(value)}`,
    );
  return Math.min(n, max);
}

/** A window of `sequence` (offset and limit as the query gave them), tokens only. */
export function tokenWindow(
  model: RolloutModel,
  sequence: string,
  offsetParam: string | null,
  limitParam: string | null,
): TokenWindow {
  return windowOf(model, sequence, sequenceParts(model, sequence), offsetParam, limitParam);
}

/** A window that opens a sequence: the tokens plus every segment of the whole sequence. */
export function segmentedWindow(
  model: RolloutModel,
  sequence: string,
  offsetParam: string | null,
  limitParam: string | null,
): SegmentedWindow {
  const parts = sequenceParts(model, sequence);
  const segments: TokenSegment[] = parts.map((p) => ({
    call: callId(model, p.call),
    kind: p.kind,
    start: p.start,
    length: p.ids.length,
  }));
  return { ...windowOf(model, sequence, parts, offsetParam, limitParam), segments };
}

/**
 * The window the inspector page ships for its first paint: the URL's sequence at the window holding
 * the URL's position. Null when the URL names no sequence of this rollout (the client then asks and
 * shows the route's error).
 */
export function firstWindow(
  model: RolloutModel,
  chain: string | null,
  pos: number | null,
): SegmentedWindow | null {
  try {
    return segmentedWindow(
      model,
      sequenceOf(model.view, chain),
      String(windowStart(pos)),
      String(TOKEN_WINDOW),
    );
  } catch (err) {
    if (err instanceof UnknownEntityError) return null;
    throw err;
  }
}

const callId = (model: RolloutModel, index: number) => model.view.calls[index]?.model_call_id ?? "";

interface Columns {
  id: number[];
  text: Array<string | null>;
  piece: Array<WindowPiece | null>;
  mask: number[];
  log_prob: Array<number | null>;
  call: number[];
  outside: TokenWindow["tokens"]["outside"];
}

function windowOf(
  model: RolloutModel,
  sequence: string,
  parts: readonly Part[],
  offsetParam: string | null,
  limitParam: string | null,
): TokenWindow {
  const last = parts[parts.length - 1];
  const total = last ? last.start + last.ids.length : 0;
  const offset = parseCount(offsetParam, "offset", 0, Number.MAX_SAFE_INTEGER);
  const end = Math.min(total, offset + parseCount(limitParam, "limit", TOKEN_WINDOW, MAX_WINDOW));
  const dec = model.decoder;
  const cols: Columns = {
    id: [],
    text: [],
    piece: [],
    mask: [],
    log_prob: [],
    call: [],
    outside: [],
  };
  const callIds: string[] = [];
  const callSlot = new Map<number, number>();
  for (const p of parts) {
    const pEnd = p.start + p.ids.length;
    if (pEnd <= offset || p.start >= end) continue;
    let slot = callSlot.get(p.call);
    if (slot === undefined) {
      slot = callIds.push(callId(model, p.call)) - 1;
      callSlot.set(p.call, slot);
    }
    pushPart(cols, p, Math.max(offset, p.start), Math.min(end, pEnd), slot, dec);
  }
  // Without a tokenizer only an outside id has text; with none of those there is nothing to send.
  const texts = dec !== null || cols.outside.length > 0;
  const tokens = { ...cols, text: texts ? cols.text : null, piece: texts ? cols.piece : null };
  return { sequence, total, offset, decoded: dec !== null, tokens, call_ids: callIds };
}

/** Positions [from, to) of the sequence, all in part `p`, onto the window's columns. */
function pushPart(
  cols: Columns,
  p: Part,
  from: number,
  to: number,
  slot: number,
  dec: TokenDecoder | null,
): void {
  const generated = p.kind === "generated";
  let x = firstExactFrom(p.exact, from - p.start);
  for (let pos = from; pos < to; pos++) {
    const k = pos - p.start;
    const id = p.ids[k] ?? 0;
    const exact = p.exact[x];
    if (id === OUTSIDE_ID && exact?.[0] === k) {
      x++;
      cols.outside.push([cols.id.length, exact[1]]);
      cols.text.push(outsideText(exact[1]));
      cols.piece.push("outside");
    } else {
      const decoded = dec?.piece(id);
      cols.text.push(decoded?.text ?? null);
      cols.piece.push(decoded?.kind ?? null);
    }
    cols.id.push(id);
    cols.mask.push(generated ? 1 : 0);
    cols.log_prob.push(generated && p.logProbs ? (p.logProbs[k] ?? null) : null);
    cols.call.push(slot);
  }
}

/** The first of `exact` at index `k` or after (binary search: the list is ascending). */
function firstExactFrom(exact: ExactIds, k: number): number {
  let lo = 0,
    hi = exact.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((exact[mid] as ExactIds[number])[0] < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The exact digits at index `k` of a part, undefined when its id is inside int32. */
function exactAt(exact: ExactIds, k: number): string | null | undefined {
  const e = exact[firstExactFrom(exact, k)];
  return e?.[0] === k ? e[1] : undefined;
}

/** The text an id outside 0 … 2^31−1 is shown with, its digits exact (a true minus sign). */
function outsideText(digits: string | null): string {
  const id = digits === null ? "past 2^53 (digits not kept)" : digits.replace("-", "−");
  return `⟨id ${id}: outside any vocabulary⟩`;
}

export function lowProbTokens(
  model: RolloutModel,
  sequence: string,
  thresholdParam: string,
  limitParam: string | null,
): LowProbMatches {
  const threshold = Number(thresholdParam);
  if (!Number.isFinite(threshold) || threshold > 0)
    throw new InvalidInputError(
      `lowprob must be a log prob (a number ≤ 0), got ${JSON.stringify(thresholdParam)}`,
    );
  const limit = parseCount(limitParam, "limit", 500, MAX_WINDOW);
  const matches: LowProbMatches["matches"] = [];
  let total = 0;
  for (const p of sequenceParts(model, sequence)) {
    if (p.kind !== "generated" || !p.logProbs) continue;
    for (let k = 0; k < p.ids.length; k++) {
      const lp = p.logProbs[k] as number;
      if (lp >= threshold) continue;
      total++;
      if (matches.length < limit) {
        const id = p.ids[k] as number;
        const digits = id === OUTSIDE_ID ? exactAt(p.exact, k) : undefined;
        matches.push({
          pos: p.start + k,
          id,
          text:
            digits !== undefined ? outsideText(digits) : (model.decoder?.piece(id).text ?? null),
          log_prob: lp,
          call: callId(model, p.call),
        });
      }
    }
  }
  return { sequence, threshold, total, matches };
}
