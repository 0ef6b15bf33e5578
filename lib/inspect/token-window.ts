// Windows of a flattened sequence: a chain as the trainer sees it (root prompt and interstitials
// re-fed with mask 0, generations with mask 1 and their log probs), or one call as the model saw it
// (everything before its generation is input). Only the requested window is decoded and sent.
import { InvalidInputError, UnknownCallError, UnknownChainError } from "@/lib/errors";
import type { LowProbMatches, SegmentKind, TokenWindow } from "@/lib/schema";
import type { CallTokens, RolloutModel } from "./rollout-model";

interface Part {
  call: number;
  kind: SegmentKind;
  ids: Int32Array;
  logProbs: Float64Array | null; // generated parts only
  start: number;
}

export const MAX_WINDOW = 5000;

/** `main`, a chain id, or `call:<model_call_id>`. */
export function sequenceParts(model: RolloutModel, sequence: string): Part[] {
  const parts: Part[] = [];
  let start = 0;
  const push = (call: number, kind: SegmentKind, ids: Int32Array, logProbs: Float64Array | null) => {
    if (ids.length === 0) return;
    parts.push({ call, kind, ids, logProbs, start });
    start += ids.length;
  };
  if (sequence.startsWith("call:")) {
    const idx = model.callIndex.get(sequence.slice(5));
    if (idx === undefined) throw new UnknownCallError(`no call ${sequence.slice(5)} in rollout ${model.view.rollout_id}`);
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
  if (!calls) throw new UnknownChainError(`no chain ${sequence} in rollout ${model.view.rollout_id}${model.chainCalls.size === 0 ? " (the rollout has no chain)" : ""}`);
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
  if (!Number.isInteger(n) || n < 0) throw new InvalidInputError(`${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return Math.min(n, max);
}

export function tokenWindow(model: RolloutModel, sequence: string, offsetParam: string | null, limitParam: string | null): TokenWindow {
  const parts = sequenceParts(model, sequence);
  const total = parts.length ? parts[parts.length - 1]!.start + parts[parts.length - 1]!.ids.length : 0;
  const offset = parseCount(offsetParam, "offset", 0, Number.MAX_SAFE_INTEGER);
  const limit = parseCount(limitParam, "limit", 2000, MAX_WINDOW);
  const end = Math.min(total, offset + limit);
  const dec = model.decoder;
  const out: TokenWindow["tokens"] = { id: [], text: dec ? [] : null, piece: dec ? [] : null, mask: [], log_prob: [], call: [] };
  const callIds: string[] = [];
  const callSlot = new Map<number, number>();
  for (const p of parts) {
    const pEnd = p.start + p.ids.length;
    if (pEnd <= offset || p.start >= end) continue;
    let slot = callSlot.get(p.call);
    if (slot === undefined) {
      slot = callIds.push(model.view.calls[p.call]!.model_call_id) - 1;
      callSlot.set(p.call, slot);
    }
    const generated = p.kind === "generated";
    for (let pos = Math.max(offset, p.start); pos < Math.min(end, pEnd); pos++) {
      const k = pos - p.start;
      const id = p.ids[k] as number;
      out.id.push(id);
      if (dec) {
        const piece = dec.piece(id);
        out.text!.push(piece.text);
        out.piece!.push(piece.kind);
      }
      out.mask.push(generated ? 1 : 0);
      out.log_prob.push(generated && p.logProbs ? (p.logProbs[k] as number) : null);
      out.call.push(slot);
    }
  }
  return {
    sequence,
    total,
    offset,
    segments: parts.map((p) => ({ call: model.view.calls[p.call]!.model_call_id, kind: p.kind, start: p.start, length: p.ids.length })),
    decoded: dec !== null,
    tokens: out,
    call_ids: callIds,
  };
}

export function lowProbTokens(model: RolloutModel, sequence: string, thresholdParam: string, limitParam: string | null): LowProbMatches {
  const threshold = Number(thresholdParam);
  if (!Number.isFinite(threshold) || threshold > 0) throw new InvalidInputError(`lowprob must be a log prob (a number ≤ 0), got ${JSON.stringify(thresholdParam)}`);
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
        matches.push({ pos: p.start + k, id, text: model.decoder?.piece(id).text ?? null, log_prob: lp, call: model.view.calls[p.call]!.model_call_id });
      }
    }
  }
  return { sequence, threshold, total, matches };
}
