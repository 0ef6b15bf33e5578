// Windows of a flattened sequence: a chain as the trainer sees it (root prompt and interstitials
// re-fed with mask 0, generations with mask 1 and their log probs), or one call as the model saw it
// (everything before its generation is input). Only the requested window is decoded and sent; the
// segments (call boundaries) only with the window that opens a sequence. Also low-prob matches.
import {
  InvalidInputError,
  UnknownCallError,
  UnknownChainError,
  UnknownEntityError,
} from "@/lib/errors";
import type {
  LowProbMatches,
  PieceKind,
  SegmentKind,
  SegmentedWindow,
  TokenSegment,
  TokenWindow,
} from "@/lib/schema/api-tokens";
import { sequenceOf, TOKEN_WINDOW, windowStart } from "@/lib/view/inspector-url";
import type { CallTokens, RolloutModel } from "./model";

interface Part {
  call: number;
  kind: SegmentKind;
  ids: Int32Array;
  logProbs: Float64Array | null; // generated parts only
  start: number;
}

/** The most tokens one request gets: a window is decoded and sent whole. */
const MAX_WINDOW = 5000;

/** The parts of `main`, a chain id, or `call:<model_call_id>`, in order, with their start positions. */
function sequenceParts(model: RolloutModel, sequence: string): Part[] {
  const parts: Part[] = [];
  let start = 0;
  const push = (
    call: number,
    kind: SegmentKind,
    ids: Int32Array,
    logProbs: Float64Array | null,
  ) => {
    if (ids.length === 0) return;
    parts.push({ call, kind, ids, logProbs, start });
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
      push(c, last ? (k === 0 ? "prompt" : "interstitial") : "inherited", t.own, null);
      push(c, last ? "generated" : "inherited", t.gen, last ? t.logProbs : null);
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
    push(c, k === 0 ? "prompt" : "interstitial", t.own, null);
    push(c, "generated", t.gen, t.logProbs);
  });
  return parts;
}

function parseCount(value: string | null, name: string, fallback: number, max: number): number {
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
  const text: string[] = [];
  const piece: PieceKind[] = [];
  const out: TokenWindow["tokens"] = {
    id: [],
    text: dec ? text : null,
    piece: dec ? piece : null,
    mask: [],
    log_prob: [],
    call: [],
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
    const generated = p.kind === "generated";
    for (let pos = Math.max(offset, p.start); pos < Math.min(end, pEnd); pos++) {
      const k = pos - p.start;
      const id = p.ids[k] ?? 0;
      out.id.push(id);
      if (dec) {
        const decoded = dec.piece(id);
        text.push(decoded.text);
        piece.push(decoded.kind);
      }
      out.mask.push(generated ? 1 : 0);
      out.log_prob.push(generated && p.logProbs ? (p.logProbs[k] ?? null) : null);
      out.call.push(slot);
    }
  }
  return { sequence, total, offset, decoded: dec !== null, tokens: out, call_ids: callIds };
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
        matches.push({
          pos: p.start + k,
          id,
          text: model.decoder?.piece(id).text ?? null,
          log_prob: lp,
          call: callId(model, p.call),
        });
      }
    }
  }
  return { sequence, threshold, total, matches };
}
