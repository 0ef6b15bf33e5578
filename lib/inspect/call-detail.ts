// One call in full for the detail pane: its output items, every exchange recorded for it (status,
// latency, error body), and its prompt split into the inherited prefix and the interstitial, with
// the text of the interstitial and of the prefix's end. Works for failed calls with no token entry.
import { UnknownCallError } from "@/lib/errors";
import type { CaptureExchange } from "@/lib/schema";
import type { CallView, RolloutModel } from "./rollout-model";

export interface CallDetail {
  model_call_id: string;
  call: CallView | null;
  output_items: unknown[];
  exchanges: Array<{ line: number; exchange: CaptureExchange }>;
  prompt: null | {
    inherited_len: number;
    interstitial_len: number;
    /** Text of the last tokens of the inherited prefix (where the interstitial attaches). */
    inherited_tail: string | null;
    interstitial: string | null;
    interstitial_truncated: boolean;
  };
  generation: string | null;
}

const TAIL = 48;
const MAX_TEXT_TOKENS = 8000;

export function callDetail(model: RolloutModel, callId: string): CallDetail {
  const exchanges = model.exchanges.get(callId) ?? [];
  const idx = model.callIndex.get(callId);
  if (idx === undefined) {
    if (exchanges.length === 0) throw new UnknownCallError(`no call ${callId} in rollout ${model.view.rollout_id}`);
    return { model_call_id: callId, call: null, output_items: [], exchanges, prompt: null, generation: null };
  }
  const call = model.view.calls[idx] as CallView;
  const t = model.tokens[idx]!;

  const dec = model.decoder;
  const text = (ids: ArrayLike<number>) => (dec ? dec.decode(Array.from(ids)) : null);
  let tail: number[] = [];
  if (t.parent >= 0) {
    // The inherited prefix ends with the parent's generation, preceded by its own prompt tail.
    const p = model.tokens[t.parent]!;
    tail = [...Array.from(p.own), ...Array.from(p.gen)].slice(-TAIL);
  }
  return {
    model_call_id: callId,
    call,
    output_items: model.outputItems.get(callId) ?? [],
    exchanges,
    prompt: {
      inherited_len: call.inherited_len,
      interstitial_len: call.interstitial_len,
      inherited_tail: t.parent >= 0 ? text(tail) : null,
      interstitial: text(t.own.subarray(0, MAX_TEXT_TOKENS)),
      interstitial_truncated: t.own.length > MAX_TEXT_TOKENS,
    },
    generation: text(t.gen),
  };
}
