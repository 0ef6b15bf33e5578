// The server-side model of one inspected rollout: the view the page shows, plus compact token
// storage (each call's own prompt tail and generation as typed arrays) so windows of a 200k-token
// chain are served without rebuilding or holding the raw entries. Types and the packing of ids into
// int32 storage; built by build-model. Plain data apart from `decoder`: a worker can clone it.
import type { ExchangeRecord } from "@/lib/store";
import { type RolloutView, OUTSIDE_TOKEN_ID, type TokenIds } from "@/lib/schema";
import type { TokenDecoder } from "@/lib/tokens";
import type { Routes } from "@/lib/experts";

/**
 * What `own`/`gen` hold for an id outside 0 … 2^31−1 (Gym trains on any integer, docs/gym-v1-store.md
 * §4): int32 cannot hold it, so its exact digits are kept beside the array (`ExactIds`).
 */
export const OUTSIDE_ID = OUTSIDE_TOKEN_ID;

/**
 * [index into own or gen, the id's exact decimal digits], ascending, one per `OUTSIDE_ID` slot.
 * Digits are null only for an id past 2^53 whose text the reader did not keep (a double is not exact).
 */
export type ExactIds = Array<[number, string | null]>;

/** One call's tokens: the prompt tail after `inherited` (what the parent did not already hold) and the generation. */
export interface CallTokens {
  /** Index into the model's calls of the parent, -1 when the prompt is stored whole. */
  parent: number;
  inherited: number;
  own: Int32Array;
  gen: Int32Array;
  /** The ids `own` and `gen` hold as `OUTSIDE_ID`, exactly. */
  exact: { own: ExactIds; gen: ExactIds };
  /** Null when the entry's log probs do not match its generation one for one. */
  logProbs: Float64Array | null;
  /** The call's routed experts over its prompt and generation (lib/experts), null without. */
  routes: Routes | null;
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

const MAX_ID = 0x7fffffff;

/**
 * `ids[from…]` as int32, each id outside 0 … 2^31−1 stored as `OUTSIDE_ID` with its digits in
 * `exact`: `digitsAt(i)` gives the file's own digits of `ids[i]` when the reader kept them.
 */
export function packIds(
  ids: TokenIds,
  from: number,
  digitsAt: (index: number) => string | undefined,
): { ids: Int32Array; exact: ExactIds } {
  // Scanned ids are int32 already (lib/store/token-line): one copy of the range.
  if (ids instanceof Int32Array) return { ids: ids.slice(Math.min(from, ids.length)), exact: [] };
  const out = new Int32Array(Math.max(0, ids.length - from));
  const exact: ExactIds = [];
  for (let i = from; i < ids.length; i++) {
    const id = ids[i] as number;
    if (id >= 0 && id <= MAX_ID) {
      out[i - from] = id;
      continue;
    }
    out[i - from] = OUTSIDE_ID;
    // Below 2^53 the number is the id; past it only the file's text is.
    const digits = digitsAt(i) ?? (Number.isSafeInteger(id) ? String(id) : null);
    exact.push([i - from, digits]);
  }
  return { ids: out, exact };
}
