// The inspector's URL state read one way by the server page (which ships the first token window)
// and the client (which asks for the rest): the tab, the sequence (token and conversation tabs),
// the selected token position and the window holding it, the selected message and the shading,
// and what selecting a call or asking for its tokens changes. It does not fetch or scroll.
// A sequence is `main`, another chain id, or `call:<model_call_id>`. The selected call is `call`:
// a call's id, or its number in the timeline (`?call=2`, as the banner counts "call 2").
import type { CallView, ChainView, FailedCall } from "@/lib/schema";
import { timelinePositions } from "./timeline";

export const INSPECTOR_TABS = ["tokens", "conversation", "call", "chains"] as const;
export type InspectorTab = (typeof INSPECTOR_TABS)[number];

/** URL parameters to set (a string) or remove (null). */
export type InspectorPatch = Record<string, string | null>;

/** The `tab` URL parameter; anything else is the token view. */
export function tabOf(param: string | null | undefined): InspectorTab {
  return INSPECTOR_TABS.find((t) => t === param) ?? "tokens";
}

/** Tokens per window the client asks for; windows start at multiples of it. */
export const TOKEN_WINDOW = 2000;

/** The `chain` URL parameter, else main, else the first call alone (a rollout with no chain). */
export function sequenceOf(
  view: { chains: readonly unknown[]; calls: ReadonlyArray<Pick<CallView, "model_call_id">> },
  chain: string | null,
): string {
  if (chain) return chain;
  if (view.chains.length > 0) return "main";
  const first = view.calls[0];
  return first ? `call:${first.model_call_id}` : "main";
}

/** The start of the window holding position `pos` (the first window without one). */
export function windowStart(pos: number | null): number {
  return pos === null || !Number.isInteger(pos) || pos < 0
    ? 0
    : Math.floor(pos / TOKEN_WINDOW) * TOKEN_WINDOW;
}

/** The `pos` URL parameter as a position, or null when it is not a non-negative integer. */
export function positionOf(param: string | null | undefined): number | null {
  return param !== null && param !== undefined && /^\d+$/.test(param) ? Number(param) : null;
}

/** The `message` URL parameter: the selected conversation item, a non-negative integer or null. */
export const messageOf = positionOf;

/** The `shade` URL parameter: probability shading in the conversation is on only for `1`. */
export function shadeOf(param: string | null | undefined): boolean {
  return param === "1";
}

/**
 * The call the `call` URL parameter selects: a call id of this rollout as it is, else a number N
 * (1-based) as the N-th call of the timeline (lib/view/timeline/positions, the banner's "call N").
 * Anything else is returned unchanged, for the views to say there is no such call.
 */
export function selectedCallOf(
  view: {
    calls: ReadonlyArray<Pick<CallView, "model_call_id">>;
    failed: ReadonlyArray<Pick<FailedCall, "model_call_id" | "after_call">>;
    dangling_intents?: ReadonlyArray<{ model_call_id: string }>;
  },
  param: string | null | undefined,
): string | null {
  if (param === null || param === undefined || param === "") return null;
  const known = (id: string) =>
    view.calls.some((c) => c.model_call_id === id) ||
    view.failed.some((f) => f.model_call_id === id) ||
    (view.dangling_intents ?? []).some((i) => i.model_call_id === id);
  if (known(param) || !/^[1-9]\d*$/.test(param)) return param;
  const n = Number(param);
  for (const [id, at] of timelinePositions(view.calls, view.failed)) if (at === n) return id;
  return param;
}

// --- calls in sequences ---------------------------------------------------------------------------

type CallLink = Pick<
  CallView,
  "model_call_id" | "parent_call_id" | "chains" | "interstitial_len" | "generated_len"
>;
/** What the functions below read of a rollout view. */
export interface SequenceSource {
  chains: ReadonlyArray<Pick<ChainView, "chain_id" | "call_ids">>;
  calls: readonly CallLink[];
  failed: ReadonlyArray<{ model_call_id: string }>;
}

/**
 * The calls whose tokens make up `sequence`, in order, as the token routes lay it out: a chain's
 * calls, or a call alone after its ancestors. Null when the sequence names nothing of this rollout.
 */
export function sequenceCalls(view: SequenceSource, sequence: string): readonly string[] | null {
  if (!sequence.startsWith("call:")) {
    return view.chains.find((c) => c.chain_id === sequence)?.call_ids ?? null;
  }
  const byId = new Map(view.calls.map((c) => [c.model_call_id, c]));
  const path: string[] = [];
  // Bounded by the number of calls: a parent link can never make this loop forever.
  let call = byId.get(sequence.slice(5));
  while (call && path.length <= view.calls.length) {
    path.push(call.model_call_id);
    call = call.parent_call_id === null ? undefined : byId.get(call.parent_call_id);
  }
  return path.length === 0 ? null : path.reverse();
}

/**
 * Where a call's own tokens start in `sequence`: its prompt tail (the interstitial), or its
 * generation when the whole prompt was inherited. Every call before it adds its interstitial and
 * its generation, as the token routes lay the parts out. Null when the call is not in the sequence.
 */
export function callPosition(
  view: SequenceSource,
  sequence: string,
  callId: string,
): number | null {
  const ids = sequenceCalls(view, sequence);
  if (!ids) return null;
  const byId = new Map(view.calls.map((c) => [c.model_call_id, c]));
  let pos = 0;
  for (const id of ids) {
    if (id === callId) return pos;
    const c = byId.get(id);
    pos += (c?.interstitial_len ?? 0) + (c?.generated_len ?? 0);
  }
  return null;
}

/**
 * The token sequence that shows a call: the current one when the call is in it, else main or the
 * first other chain holding it, else the call alone. Null for a call with no token entry.
 */
export function sequenceForCall(
  view: SequenceSource,
  current: string,
  callId: string,
): string | null {
  const call = view.calls.find((c) => c.model_call_id === callId);
  if (!call) return null;
  if (sequenceCalls(view, current)?.includes(callId)) return current;
  if (call.chains.includes("main")) return "main";
  return call.chains[0] ?? `call:${callId}`;
}

/** What selecting a call changes, and the sequences whose conversation to search for its item. */
export interface CallSelection {
  patch: InspectorPatch;
  /** Conversation tab: the sequences to look for the call's first item in, in order. */
  search: string[];
}

/**
 * Selecting a call keeps the tab and moves it to the call: the token tab to the sequence holding
 * it (the view scrolls to the call while no position is selected), the conversation to the call's
 * item (searched for, as items are paged). A call the tab has nothing of (no token entry on the
 * token tab; a dangling intent on the conversation) opens the call's detail instead. The selected
 * token and message belong to the call selected before: every selection drops them, so neither tab
 * opens at the previous call (a token position would also select its own call back).
 */
export function selectCall(
  view: SequenceSource,
  tab: InspectorTab,
  current: string,
  callId: string,
): CallSelection {
  const patch: InspectorPatch = { call: callId, pos: null, message: null };
  const detail = { patch: { ...patch, tab: "call" }, search: [] };
  if (tab === "tokens") {
    const sequence = sequenceForCall(view, current, callId);
    if (sequence === null) return detail;
    if (sequence !== current) patch.chain = sequence;
    return { patch, search: [] };
  }
  if (tab === "conversation") {
    const search = conversationSearch(view, current, callId);
    return search.length === 0 ? detail : { patch, search };
  }
  return { patch, search: [] };
}

/**
 * The sequences whose conversation to search for a call's first item, in order: the current one,
 * then the one that shows the call's tokens. Empty for a call the conversation has no item of (a
 * dangling intent). Side calls and failed calls are items where they happened: current first.
 */
export function conversationSearch(
  view: SequenceSource,
  current: string,
  callId: string,
): string[] {
  const sequence = sequenceForCall(view, current, callId);
  if (sequence === null && !view.failed.some((f) => f.model_call_id === callId)) return [];
  return sequence === null || sequence === current ? [current] : [current, sequence];
}

/**
 * The call whose first item the conversation tab has to find as it opens (switched to, or deep
 * linked) with a call selected and no message: the URL's `call`, else null.
 */
export function callToFind(params: { get(key: string): string | null }): string | null {
  const call = params.get("call");
  if (!call || tabOf(params.get("tab")) !== "conversation") return null;
  return messageOf(params.get("message")) === null ? call : null;
}

/** "view tokens": the call alone (after its ancestors), opened at its own first token. */
export function callTokensPatch(view: SequenceSource, callId: string): InspectorPatch {
  const sequence = `call:${callId}`;
  const pos = callPosition(view, sequence, callId);
  return { tab: "tokens", chain: sequence, call: callId, pos: pos === null ? null : String(pos) };
}
