// The server-side model of one inspected rollout: the view the page shows, plus compact token
// storage (each call's own prompt tail and generation as typed arrays) so windows of a 200k-token
// chain are served without rebuilding or holding the raw entries. Types only; built by build-model.
import type { ExchangeRecord } from "@/lib/store";
import type { RolloutView } from "@/lib/schema/api-rollout";
import type { TokenDecoder } from "@/lib/tokens/decoder";

/** One call's tokens: the prompt tail after `inherited` (what the parent did not already hold) and the generation. */
export interface CallTokens {
  /** Index into the model's calls of the parent, -1 when the prompt is stored whole. */
  parent: number;
  inherited: number;
  own: Int32Array;
  gen: Int32Array;
  /** Null when the entry's log probs do not match its generation one for one. */
  logProbs: Float64Array | null;
}

export interface RolloutModel {
  view: RolloutView;
  /** Parallel to view.calls. */
  tokens: CallTokens[];
  /** Chain id -> indices into view.calls, in chain order. */
  chainCalls: Map<string, number[]>;
  callIndex: Map<string, number>;
  decoder: TokenDecoder | null;
  /** Retained tokens, the rollout cache's weight. */
  weight: number;
  exchanges: Map<string, ExchangeRecord[]>;
  /** Each call's output items, for the call detail (the raw entries are not kept). */
  outputItems: Map<string, Array<Record<string, unknown>>>;
}
