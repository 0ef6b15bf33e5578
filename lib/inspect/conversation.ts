// The conversation route's answer for one sequence of an inspected rollout: the sequence flattened
// into token columns (same positions as the token windows), exchange bodies per call, side and
// failed calls as events, built once per model and sequence and then paged over items with every
// text block clipped; with `shade=1`, each message with generated tokens as one span per token
// (template markers left out as always), rebuilt from its own token range, so the view can shade
// every token by probability. Not responsible for splitting or merging (lib/view/conversation/build).
import { InvalidInputError, UnknownCallError, UnknownChainError } from "@/lib/errors";
import {
  conversationQuerySchema,
  type ConversationPage,
  type ConversationQuery,
  type CallView,
} from "@/lib/schema";
import {
  type RawMessage,
  sliceParts,
  tokenColumns,
  type SequencePart,
  buildConversation,
  type Conversation,
  type ConversationCall,
  type ConversationEvent,
  pageConversation,
  shadedBlocks,
  requestMessages,
  responseMessage,
} from "@/lib/view";
import type { ExchangeRecord } from "@/lib/store";
import type { CallTokens, RolloutModel } from "./model";

/** The route's query: the contract's, and `shade=1` for messages split token by token. */
export type ConversationRequest = ConversationQuery & { shade?: boolean };

/** The query parameters the route takes, validated; anything else in the URL is ignored. */
export function parseConversationQuery(params: URLSearchParams): ConversationRequest {
  const shade = params.get("shade");
  if (shade !== null && shade !== "" && shade !== "0" && shade !== "1")
    throw new InvalidInputError("shade: expected 0 or 1");
  const pick = (k: string) => params.get(k) || undefined;
  const parsed = conversationQuerySchema.safeParse({
    chain: pick("chain"),
    offset: pick("offset"),
    limit: pick("limit"),
    clip: pick("clip"),
  });
  if (parsed.success) return shade === "1" ? { ...parsed.data, shade: true } : parsed.data;
  const issue = parsed.error.issues[0];
  throw new InvalidInputError(
    `${issue?.path.join(".") || "query"}: ${issue?.message ?? "invalid"}`,
  );
}

export function conversationPage(model: RolloutModel, q: ConversationRequest): ConversationPage {
  const conv = conversationOf(model, q.chain);
  const shaded = q.shade ? shadePage(model, q, conv) : null;
  return {
    sequence: q.chain,
    template: conv.template,
    decoded: model.decoder !== null,
    total: conv.items.length,
    offset: q.offset,
    clip: q.clip,
    length: conv.length,
    generated: conv.generated,
    items: shaded
      ? pageConversation({ items: shaded }, 0, q.limit, q.clip)
      : pageConversation(conv, q.offset, q.limit, q.clip),
  };
}

/** The page's items with each message that has generated tokens split token by token. */
function shadePage(model: RolloutModel, q: ConversationQuery, conv: Conversation) {
  const parts = sequenceParts(model, q.chain);
  const local = localCalls(parts);
  return conv.items.slice(q.offset, q.offset + q.limit).map((item, k) => {
    const raw = conv.raws[q.offset + k];
    if (item.kind !== "message" || item.generated === 0 || !raw) return item;
    const { columns } = tokenColumns(model.decoder, sliceParts(parts, raw.start, raw.end), local);
    const source = conv.template === "plain" ? ("segment" as const) : ("tokens" as const);
    const blocks = shadedBlocks(columns, relative(raw), conv.template, raw.start);
    return { ...item, source, blocks };
  });
}

/** A message's ranges counted from its own start. */
function relative(raw: RawMessage): RawMessage {
  const at = raw.start;
  return {
    ...raw,
    start: 0,
    end: raw.end - at,
    contentStart: raw.contentStart - at,
    contentEnd: raw.contentEnd - at,
  };
}

/** Each part's call (an index into the rollout's calls) -> its index in the sequence's calls. */
function localCalls(parts: readonly Part[]): Map<number, number> {
  const local = new Map<number, number>();
  for (const p of parts) if (!local.has(p.call)) local.set(p.call, local.size);
  return local;
}

// Paging through a conversation must not rebuild it: kept per model (itself cached and evicted by
// the rollout cache), a few sequences each.
const built = new WeakMap<RolloutModel, Map<string, Conversation>>();
const SEQUENCES_PER_MODEL = 6;

export function conversationOf(model: RolloutModel, sequence: string): Conversation {
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

type Part = SequencePart;

/** The sequence's parts in order, by the token windows' rule (empty parts dropped there too). */
export function sequenceParts(model: RolloutModel, sequence: string): Part[] {
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
  const local = localCalls(parts);
  const calls: ConversationCall[] = [...local.keys()].map((c) =>
    callBodies(model, model.view.calls[c] as CallView),
  );
  const { columns, segments } = tokenColumns(model.decoder, parts, local);
  const events = sequence.startsWith("call:") ? [] : rolloutEvents(model);
  return { columns, segments, calls, events };
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
