// Every call of a rollout as the inspector describes it: its role in the build (main, branch, side
// call, quarantined, excluded), how its parent was found, its retry group, its prompt split into
// inherited prefix and interstitial, and its last exchange; each chain's size; failed HTTP calls
// placed in time. Reads the builder's output only; the words for these facts live in lib/view.
import type { Build, CallNode, Verdict } from "@/lib/builder";
import {
  finishReason,
  servedModel,
  type TokenEntry,
  type CallRole,
  type CallView,
  type ChainView,
  type ExchangeSummary,
  type FailedCall,
  type RetryRole,
} from "@/lib/schema";
import type { ExchangeRecord } from "@/lib/store";
import { pushTo, excludedReason, timelinePositions } from "@/lib/view";
import { errorSummary } from "@/lib/store/pure";
import { failedCallFromExchange } from "@/lib/severity";
import { packIds, type CallTokens } from "./model";
import { callRoutes } from "@/lib/experts";

/** The last of a call's exchanges in brief, with how many there were. */
export function summarizeExchanges(
  list: readonly ExchangeRecord[] | undefined,
): ExchangeSummary | null {
  const last = list?.[list.length - 1]?.exchange;
  if (!list || !last) return null;
  return {
    status_code: last.status_code,
    error_category: last.error_category,
    latency_ms: last.latency_ms,
    finish_reason: finishReason(last),
    started_at: last.started_at,
    served_model: servedModel(last),
    count: list.length,
  };
}

interface BuildIndex {
  build: Build | null;
  nodeOf: Map<string, CallNode>;
  chainsOf: Map<number, string[]>;
  side: Map<string, CallView["side_call"]>;
  emptyGeneration: Set<string>;
  failed: boolean;
}

function indexBuild(v: Verdict): BuildIndex {
  const build = v.build;
  const nodeOf = new Map<string, CallNode>();
  for (const n of build?.nodes ?? []) nodeOf.set(n.entry.model_call_id, n);
  const chainsOf = new Map<number, string[]>();
  for (const c of build?.chains ?? []) for (const i of c.nodes) pushTo(chainsOf, i, c.chain_id);
  const side = new Map(v.side_calls.map((s) => [s.model_call_id, s.reason]));
  const emptyGeneration = new Set(build?.notes.empty_generation_calls ?? []);
  return { build, nodeOf, chainsOf, side, emptyGeneration, failed: v.error !== null };
}

function roleOf(
  id: string,
  node: CallNode | undefined,
  chains: readonly string[],
  side: ReadonlyMap<string, unknown>,
): CallRole {
  if (side.has(id)) return "side_call";
  if (!node) return "excluded";
  if (node.quarantine) return "quarantined";
  if (chains.includes("main")) return "main";
  return chains.length > 0 ? "branch" : "unchained";
}

function describeCall(
  e: TokenEntry,
  line: number,
  ix: BuildIndex,
  exchanges: ReadonlyMap<string, ExchangeRecord[]>,
): CallView {
  const id = e.model_call_id;
  const node = ix.nodeOf.get(id);
  const nodes = ix.build?.nodes ?? [];
  const parentNode = node && node.parent >= 0 ? nodes[node.parent] : undefined;
  const inherited = parentNode ? Math.min(parentNode.cumLen, e.prompt_token_ids.length) : 0;
  const group = node && node.retryGroup >= 0 ? ix.build?.retryGroups[node.retryGroup] : undefined;
  const chains = node ? (ix.chainsOf.get(node.index) ?? []) : [];
  const role = roleOf(id, node, chains, ix.side);
  let retry: RetryRole | null = null;
  if (group && node)
    retry = group.unresolved ? "unresolved" : group.kept.includes(node.index) ? "kept" : "dropped";
  const cause = ix.emptyGeneration.has(id)
    ? "empty_generation"
    : ix.failed
      ? "build_failed"
      : "not_built";
  return {
    model_call_id: id,
    line,
    parent_call_id: parentNode?.entry.model_call_id ?? null,
    link: node?.link ?? null,
    fallback: node?.fallback ?? null,
    recorded_parent: e.parent_call_id,
    candidates: node ? node.candidates.map((c) => nodes[c]?.entry.model_call_id ?? "") : [],
    role,
    chains,
    retry,
    retry_group: group && node ? node.retryGroup : null,
    quarantine: node?.quarantine ?? null,
    side_call: ix.side.get(id) ?? null,
    excluded_reason: role === "excluded" ? excludedReason(cause) : null,
    requested_model: e.requested_model || null,
    model: e.model,
    prompt_len: e.prompt_token_ids.length,
    generated_len: e.generation_token_ids.length,
    inherited_len: inherited,
    interstitial_len: e.prompt_token_ids.length - inherited,
    created_at: e.created_at,
    exchange: summarizeExchanges(exchanges.get(id)),
  };
}

/** An id the reader found outside 0 … 2^31−1, with the digits it wrote in the file. */
export interface OutsideDigits {
  line: number;
  field: "prompt_token_ids" | "generation_token_ids";
  index: number;
  digits: string;
}

/** One entry's own prompt tail (after `inherited`) and generation, packed (model.ts packIds). */
function packCall(
  e: TokenEntry,
  line: number,
  inherited: number,
  digits: ReadonlyMap<string, string>,
): CallTokens {
  const at = (field: OutsideDigits["field"]) => (i: number) => digits.get(`${line}:${field}:${i}`);
  const own = packIds(e.prompt_token_ids, inherited, at("prompt_token_ids"));
  const gen = packIds(e.generation_token_ids, 0, at("generation_token_ids"));
  const lps = e.generation_log_probs;
  return {
    parent: -1, // set by describeCalls, once every call has an index
    inherited,
    own: own.ids,
    gen: gen.ids,
    exact: { own: own.exact, gen: gen.exact },
    logProbs: lps.length === gen.ids.length ? Float64Array.from(lps) : null,
    routes: callRoutes(e.routed_experts, e.prompt_token_ids.length, gen.ids.length),
  };
}

/**
 * Calls in the builder's processing order (created_at, then line), each with its compact tokens.
 * `lines[k]` is the token-file line of `entries[k]`; `outside` gives the exact digits of ids past
 * int32 (a double cannot hold those past 2^53), by line.
 */
export function describeCalls(
  v: Verdict,
  entries: readonly TokenEntry[],
  lines: readonly number[],
  exchanges: ReadonlyMap<string, ExchangeRecord[]>,
  outside: readonly OutsideDigits[] = [],
) {
  const ix = indexBuild(v);
  const digits = new Map(outside.map((o) => [`${o.line}:${o.field}:${o.index}`, o.digits]));
  const order = entries
    .map((_, k) => k)
    .sort(
      (a, b) =>
        (entries[a]?.created_at ?? 0) - (entries[b]?.created_at ?? 0) ||
        (lines[a] ?? 0) - (lines[b] ?? 0),
    );
  const callIndex = new Map<string, number>();
  const calls: CallView[] = [];
  const tokens: CallTokens[] = [];
  for (const k of order) {
    const e = entries[k] as TokenEntry;
    const line = lines[k] ?? k + 1;
    const call = describeCall(e, line, ix, exchanges);
    callIndex.set(e.model_call_id, calls.length);
    calls.push(call);
    tokens.push(packCall(e, line, call.inherited_len, digits));
  }
  calls.forEach((c, i) => {
    const t = tokens[i];
    if (t && c.parent_call_id !== null) t.parent = callIndex.get(c.parent_call_id) ?? -1;
  });
  return { calls, tokens, callIndex };
}

/** Chains with main first, each with its root and its flattened length in tokens. */
export function describeChains(
  build: Build | null,
  callIndex: ReadonlyMap<string, number>,
  tokens: readonly CallTokens[],
): ChainView[] {
  if (!build) return [];
  const ordered = [...build.chains].sort((a, b) =>
    a.chain_id === "main" ? -1 : b.chain_id === "main" ? 1 : 0,
  );
  return ordered.flatMap((c) => {
    const ids = c.nodes.map((i) => build.nodes[i]?.entry.model_call_id ?? "");
    const root = build.nodes[c.nodes[0] ?? -1]?.entry;
    if (!root) return [];
    let length = 0;
    for (const id of ids) {
      const t = tokens[callIndex.get(id) ?? -1];
      if (t) length += t.own.length + t.gen.length;
    }
    return [
      {
        chain_id: c.chain_id,
        call_ids: ids,
        root_call_id: root.model_call_id,
        generated: c.generated,
        root_created_at: root.created_at,
        root_prompt_len: root.prompt_token_ids.length,
        length,
      },
    ];
  });
}

/**
 * Failed exchanges (no token entry) in start order, each after the call created last before it
 * started, numbered as the timeline shows it, with the error's type, location and message.
 */
export function placeFailed(
  list: readonly ExchangeRecord[],
  calls: readonly CallView[],
): FailedCall[] {
  const byCreated = [...calls].sort((a, b) => a.created_at - b.created_at);
  const placed = list.map(({ exchange: x }) => {
    const started = x.started_at;
    let after: CallView | null = null;
    // Binary search: the last call with created_at <= started.
    let lo = 0,
      hi = byCreated.length - 1;
    while (started !== null && lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = byCreated[mid] as CallView;
      if (c.created_at <= started) [after, lo] = [c, mid + 1];
      else hi = mid - 1;
    }
    return { x, model_call_id: x.model_call_id, after_call: after?.model_call_id ?? null };
  });
  placed.sort((a, b) => (a.x.started_at ?? 0) - (b.x.started_at ?? 0));
  const positions = timelinePositions(calls, placed);
  return placed.map(({ x, after_call }): FailedCall => {
    const fact = failedCallFromExchange(x, positions.get(x.model_call_id) ?? 0);
    return {
      model_call_id: x.model_call_id,
      started_at: x.started_at,
      status_code: x.status_code,
      error_category: x.error_category,
      latency_ms: x.latency_ms,
      after_call,
      error: errorSummary(x),
      position: fact.position,
      error_type: fact.error_type,
      location: fact.location,
      message: fact.message,
    };
  });
}
