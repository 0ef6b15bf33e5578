// One call in full for the detail pane: its output items, every exchange recorded for it (status,
// latency, the error body of a failure), and its prompt split into the inherited prefix and the
// interstitial, with the text of the interstitial and of the prefix's end. Works for failed calls
// with no token entry. Reads a built model only.
import { UnknownCallError } from "@/lib/errors";
import { finishReason, servedModel, type CallDetail, type CallExchange } from "@/lib/schema";
import type { ExchangeRecord } from "@/lib/store";
import type { RolloutModel } from "./model";

/** Tokens of the inherited prefix shown before the interstitial. */
const TAIL = 48;
/** Interstitial tokens decoded at most (a compaction's interstitial can be the whole prompt). */
const MAX_TEXT_TOKENS = 8000;

function toCallExchange({ line, exchange: x }: ExchangeRecord): CallExchange {
  const failed = x.status_code === null || x.status_code >= 400;
  return {
    line,
    status_code: x.status_code,
    error_category: x.error_category,
    latency_ms: x.latency_ms,
    started_at: x.started_at,
    finish_reason: finishReason(x),
    served_model: servedModel(x),
    error_body: failed ? x.response : null,
  };
}

export function callDetail(model: RolloutModel, callId: string): CallDetail {
  const exchanges = (model.exchanges.get(callId) ?? []).map(toCallExchange);
  const idx = model.callIndex.get(callId);
  const call = idx === undefined ? undefined : model.view.calls[idx];
  const t = idx === undefined ? undefined : model.tokens[idx];
  if (!call || !t) {
    if (exchanges.length === 0)
      throw new UnknownCallError(`no call ${callId} in rollout ${model.view.rollout_id}`);
    return {
      model_call_id: callId,
      call: null,
      output_items: [],
      exchanges,
      prompt: null,
      generation: null,
    };
  }
  const dec = model.decoder;
  const text = (ids: ArrayLike<number>) => (dec ? dec.decode(Array.from(ids)) : null);
  // The inherited prefix ends with the parent's generation, preceded by the parent's own prompt tail.
  const parent = model.tokens[t.parent];
  const tail = parent ? [...parent.own.subarray(-TAIL), ...parent.gen].slice(-TAIL) : null;
  return {
    model_call_id: callId,
    call,
    output_items: model.outputItems.get(callId) ?? [],
    exchanges,
    prompt: {
      inherited_len: call.inherited_len,
      interstitial_len: call.interstitial_len,
      inherited_tail: tail && text(tail),
      interstitial: text(t.own.subarray(0, MAX_TEXT_TOKENS)),
      interstitial_truncated: t.own.length > MAX_TEXT_TOKENS,
    },
    generation: text(t.gen),
  };
}
