// The conversation route's answer for one sequence of an inspected rollout: the sequence flattened
// into token columns (same positions as the token windows), exchange bodies per call, side and
// failed calls as events, built once per model and sequence and then paged over items with every
// text block clipped. Not responsible for splitting or merging (lib/view/conversation).
import { InvalidInputError, UnknownCallError, UnknownChainError } from "@/lib/errors";
import {
  conversationQuerySchema,
  type ConversationPage,
  type ConversationQuery,
} from "@/lib/schema/api-conversation";
import type { CallView } from "@/lib/schema/api-rollout";
import type { ExchangeRecord } from "@/lib/store";
import type { TokenColumns } from "@/lib/view/chat-template";
import {
  buildConversation,
  type Conversation,
  type ConversationCall,
  type ConversationEvent,
  type PartSegment,
} from "@/lib/view/conversation";
import { pageConversation } from "@/lib/view/conversation-page";
import { requestMessages, responseMessage } from "@/lib/view/message-bodies";
import type { CallTokens, RolloutModel } from "./model";

/** The query parameters the route takes, validated; anything else in the URL is ignored. */
export function parseConversationQuery(params: URLSearchParams): ConversationQuery {
  const pick = (k: string) => params.get(k) || undefined;
  const parsed = conversationQuerySchema.safeParse({
    chain: pick("chain"),
    offset: pick("offset"),
    limit: pick("limit"),
    clip: pick("clip"),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InvalidInputError(
    `${issue?.path.join(".") || "query"}: ${issue?.message ?? "invalid"}`,
  );
}

export function conversationPage(model: RolloutModel, q: ConversationQuery): ConversationPage {
  const conv = conversationOf(model, q.chain);
  return {
    sequence: q.chain,
    template: conv.template,
    decoded: model.decoder !== null,
    total: conv.items.length,
    offset: q.offset,
    clip: q.clip,
    length: conv.length,
    generated: conv.generated,
    items: pageConversation(conv, q.offset, q.limit, q.clip),
  };
}

// Paging through a conversation must not rebuild it: kept per model (itself cached and evicted by
// the rollout cache), a few sequences each.
const built = new WeakMap<RolloutModel, Map<string, Conversation>>();
const SEQUENCES_PER_MODEL = 6;

function conversationOf(model: RolloutModel, sequence: string): Conversation {
  let bySequence = built.get(model);
  if (!bySequence) built.set(model, (bySequence = new Map()));
  const hit = bySequence.get(sequence);
  if (hit) return hit;
  const conv = buildConversation(conversationInput(model, sequence));
  if (bySequence.size >= SEQUENCES_PER_MODEL)
    bySequence.delete(bySequence.keys().next().value as string);
  bySequence.set(sequence, conv);
  return conv;
}

interface Part {
  call: number; // index into model.view.calls
  kind: PartSegment["kind"];
  part: PartSegment["part"];
  ids: Int32Array;
  logProbs: Float64Array | null;
}

/** The sequence's parts in order, by the token windows' rule (empty parts dropped there too). */
function sequenceParts(model: RolloutModel, sequence: string): Part[] {
  const parts: Part[] = [];
  const push = (
    call: number,
    kind: Part["kind"],
    part: Part["part"],
    ids: Int32Array,
    lp: Float64Array | null,
  ) => {
    if (ids.length > 0) parts.push({ call, kind, part, ids, logProbs: lp });
  };
  if (sequence.startsWith("call:")) {
    const idx = model.callIndex.get(sequence.slice(5));
    if (idx === undefined)
      throw new UnknownCallError(
        `no call ${sequence.slice(5)} in rollout ${model.view.rollout_id}`,
      );
    const path: number[] = [];
    for (let i = idx; i >= 0; i = (model.tokens[i] as CallTokens).parent) path.push(i);
    path.reverse().forEach((c, k) => {
      const t = model.tokens[c] as CallTokens;
      const last = k === path.length - 1;
      push(c, last ? (k === 0 ? "prompt" : "interstitial") : "inherited", "input", t.own, null);
      push(c, last ? "generated" : "inherited", "output", t.gen, last ? t.logProbs : null);
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
    push(c, k === 0 ? "prompt" : "interstitial", "input", t.own, null);
    push(c, "generated", "output", t.gen, t.logProbs);
  });
  return parts;
}

function conversationInput(model: RolloutModel, sequence: string) {
  const parts = sequenceParts(model, sequence);
  const local = new Map<number, number>(); // model call index -> index in this sequence's calls
  const calls: ConversationCall[] = [];
  for (const p of parts) {
    if (local.has(p.call)) continue;
    local.set(p.call, calls.length);
    calls.push(callBodies(model, model.view.calls[p.call] as CallView));
  }
  const { columns, segments } = tokenColumns(model, parts, local);
  const events = sequence.startsWith("call:") ? [] : rolloutEvents(model);
  return { columns, segments, calls, events };
}

function tokenColumns(model: RolloutModel, parts: readonly Part[], local: Map<number, number>) {
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
    writeText(model, p.ids, cols, at);
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
  model: RolloutModel,
  ids: Int32Array,
  cols: { text: string[]; special: Uint8Array },
  at: number,
): void {
  const dec = model.decoder;
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

/** The exchange that answered the call (its last 2xx), with its bodies as messages. */
function callBodies(model: RolloutModel, call: CallView): ConversationCall {
  const list: readonly ExchangeRecord[] = model.exchanges.get(call.model_call_id) ?? [];
  let ok: ExchangeRecord["exchange"] | null = null;
  for (const { exchange } of list)
    if (exchange.status_code === null || exchange.status_code < 400) ok = exchange;
  return {
    id: call.model_call_id,
    createdAt: call.created_at,
    request: ok ? requestMessages(ok.dialect, ok.request) : null,
    response: ok ? responseMessage(ok.dialect, ok.response) : null,
  };
}

const PREVIEW_TOKENS = 64;
const PREVIEW_CHARS = 160;

function rolloutEvents(model: RolloutModel): ConversationEvent[] {
  const events: ConversationEvent[] = [];
  model.view.calls.forEach((c, i) => {
    if (c.role !== "side_call") return;
    const reason =
      c.side_call?.kind === "pattern"
        ? `model matches the side-call pattern "${c.side_call.pattern}"`
        : c.side_call
          ? `not the policy model (${c.side_call.policy_model})`
          : "side call";
    const item = {
      kind: "side_call" as const,
      call: c.model_call_id,
      sequence: `call:${c.model_call_id}`,
      created_at: c.created_at,
      reason,
      model: c.requested_model || c.model,
      prompt_len: c.prompt_len,
      generated_len: c.generated_len,
      preview: previewOf(model, c, i),
    };
    events.push({ time: c.created_at, item });
  });
  for (const f of model.view.failed) {
    const item = {
      kind: "failed_call" as const,
      call: f.model_call_id,
      started_at: f.started_at,
      status_code: f.status_code,
      error: f.error,
    };
    events.push({ time: f.started_at ?? Number.POSITIVE_INFINITY, item });
  }
  return events;
}

/** A side call's reply in one line: its response body's text, else its first generated tokens. */
function previewOf(model: RolloutModel, call: CallView, index: number): string {
  const reply = callBodies(model, call).response?.blocks.find(
    (b) => b.kind === "text" || b.kind === "tool_call",
  );
  const gen = (model.tokens[index] as CallTokens).gen;
  const text =
    reply?.text ??
    (model.decoder
      ? model.decoder.decode(Array.from(gen.subarray(0, PREVIEW_TOKENS)))
      : Array.from(gen.subarray(0, 16)).join(" "));
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
}
