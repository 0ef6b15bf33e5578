// A flattened sequence as a conversation: messages by role, split at the chat template's markers
// (or one per segment), each text span tied to its token range and loss mask; exchange bodies give
// structure (reasoning, tool calls) where they line up with the tokens; side calls and failed calls
// sit where they happened. Linear in tokens; pure. Not responsible for paging (conversation-page).
import type {
  ChatTemplate,
  ConversationBlock,
  ConversationFailedCall,
  ConversationItem,
  ConversationMessage,
  ConversationSideCall,
  MaskSpan,
} from "@/lib/schema/api-conversation";
import {
  detectTemplate,
  findBlocks,
  roleOf,
  splitMessages,
  splitSegments,
  type RawMessage,
  type SequenceSegment,
  type TokenColumns,
} from "./chat-template";
import { newInputMessages, type BodyBlock, type BodyMessage } from "./message-bodies";

export interface ConversationCall {
  id: string;
  createdAt: number;
  /** Every message the call's request sent; null without a parsed request body. */
  request: BodyMessage[] | null;
  /** The assistant turn its response returned; null without one. */
  response: BodyMessage | null;
}

/** A segment with the side of the call it holds: its prompt tail (input) or its generation (output). */
export interface PartSegment extends SequenceSegment {
  part: "input" | "output";
}

export type ConversationEvent = {
  time: number;
  item: Omit<ConversationSideCall, "index"> | Omit<ConversationFailedCall, "index">;
};

export interface ConversationInput {
  columns: TokenColumns;
  segments: readonly PartSegment[];
  calls: readonly ConversationCall[];
  events: readonly ConversationEvent[];
}

export interface Conversation {
  template: ChatTemplate;
  items: ConversationItem[];
  length: number;
  generated: number;
}

type Message = Omit<ConversationMessage, "index">;

export function buildConversation(input: ConversationInput): Conversation {
  const { columns: cols, segments } = input;
  const template = detectTemplate(cols);
  const segOf = segmentIndex(segments, cols.text.length);
  const raws = template === "plain" ? splitSegments(segments) : splitMessages(cols, template);
  const built = raws.map((raw) => tokenMessage(cols, raw, template, input.calls));
  const keyOf = raws.map((raw) => wholeSegment(segOf, raw));
  const messages =
    template === "plain" ? fromBodiesPlain(built, keyOf, input) : enrich(built, keyOf, input);
  let generated = 0;
  for (let i = 0; i < cols.mask.length; i++) generated += cols.mask[i] as number;
  return { template, items: placeEvents(messages, input), length: cols.text.length, generated };
}

/** Segment index of every position (segments are contiguous and cover the sequence). */
function segmentIndex(segments: readonly SequenceSegment[], n: number): Int32Array {
  const out = new Int32Array(n).fill(-1);
  segments.forEach((s, k) => out.fill(k, s.start, Math.min(n, s.start + s.length)));
  return out;
}

/** The segment a message's content lies wholly inside, or -1. */
function wholeSegment(segOf: Int32Array, raw: RawMessage): number {
  if (raw.contentEnd <= raw.contentStart) return -1;
  const a = segOf[raw.contentStart] as number;
  return a === segOf[raw.contentEnd - 1] ? a : -1;
}

function tokenMessage(
  cols: TokenColumns,
  raw: RawMessage,
  template: ChatTemplate,
  calls: readonly ConversationCall[],
): Message {
  const n = raw.contentEnd - raw.contentStart;
  const offsets = new Int32Array(n + 1);
  const pieces: string[] = [];
  for (let k = 0; k < n; k++) {
    const t = cols.text[raw.contentStart + k] as string;
    const piece = k === 0 && raw.skip > 0 ? t.slice(raw.skip) : t;
    pieces.push(piece);
    offsets[k + 1] = (offsets[k] as number) + piece.length;
  }
  const text = pieces.join("");
  const role = roleOf(raw.label);
  const blocks: ConversationBlock[] = findBlocks(text, role, template).map((b) => ({
    kind: b.kind,
    name: b.name,
    tool_call_id: null,
    spans: spansOf(cols, text, offsets, raw.contentStart, b.from, b.to),
    chars: b.to - b.from,
    truncated: false,
  }));
  const callAt = cols.call[n > 0 ? raw.contentStart : raw.start] ?? 0;
  return {
    kind: "message",
    role,
    label: raw.label,
    source: template === "plain" ? "segment" : "tokens",
    call: calls[callAt]?.id ?? "",
    start: raw.start,
    end: raw.end,
    exact: true,
    ...maskStats(cols, raw.start, raw.end),
    blocks,
  };
}

/** Spans of consecutive tokens with one mask covering characters [from, to) of the content text. */
function spansOf(
  cols: TokenColumns,
  text: string,
  offsets: Int32Array,
  base: number,
  from: number,
  to: number,
): MaskSpan[] {
  const out: Array<{ mask: 0 | 1; start: number; end: number; a: number; b: number }> = [];
  let lo = 0,
    hi = offsets.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((offsets[mid] as number) <= from) lo = mid;
    else hi = mid - 1;
  }
  for (let k = lo; k < offsets.length - 1 && (offsets[k] as number) < to; k++) {
    const a = Math.max(offsets[k] as number, from),
      b = Math.min(offsets[k + 1] as number, to);
    if (b <= a) continue;
    const mask = cols.mask[base + k] === 1 ? 1 : 0;
    const last = out[out.length - 1];
    if (last && last.mask === mask && last.end === base + k) [last.end, last.b] = [base + k + 1, b];
    else out.push({ mask, start: base + k, end: base + k + 1, a, b });
  }
  return out.map((s) => ({ text: text.slice(s.a, s.b), mask: s.mask, start: s.start, end: s.end }));
}

function maskStats(cols: TokenColumns, start: number, end: number) {
  let generated = 0,
    sum = 0,
    counted = 0;
  for (let i = start; i < end; i++) {
    if (cols.mask[i] !== 1) continue;
    generated++;
    const lp = cols.logProb[i] as number;
    if (!Number.isNaN(lp)) [sum, counted] = [sum + lp, counted + 1];
  }
  return { generated, mean_log_prob: counted > 0 ? sum / counted : null };
}

function bodyBlocks(
  blocks: readonly BodyBlock[],
  mask: 0 | 1,
  start: number,
  end: number,
): ConversationBlock[] {
  return blocks
    .filter((b) => b.text !== "" || b.kind === "tool_call")
    .map((b) => ({
      kind: b.kind,
      name: b.name,
      tool_call_id: b.tool_call_id,
      spans: [{ text: b.text, mask, start, end }],
      chars: b.text.length,
      truncated: false,
    }));
}

/** The messages whose content lies wholly inside each segment, in order. */
function bySegment(keyOf: readonly number[], count: number): number[][] {
  const out: number[][] = Array.from({ length: count }, () => []);
  keyOf.forEach((k, i) => k >= 0 && out[k]!.push(i));
  return out;
}

/** What each segment's call said in its bodies: the new input messages, or the reply. */
function bodiesFor(input: ConversationInput, s: number): BodyMessage[] | null {
  const seg = input.segments[s] as PartSegment;
  const call = input.calls[seg.call];
  if (!call) return null;
  if (seg.part === "output") return call.response ? [call.response] : null;
  return call.request ? newInputMessages(call.request, input.segments[0]?.call === seg.call) : null;
}

/** Token messages take an exchange body's blocks where body and tokens agree message for message. */
function enrich(
  messages: Message[],
  keyOf: readonly number[],
  input: ConversationInput,
): Message[] {
  const groups = bySegment(keyOf, input.segments.length);
  groups.forEach((group, s) => {
    const bodies = bodiesFor(input, s);
    if (!bodies || bodies.length !== group.length || group.length === 0) return;
    if (!group.every((m, k) => messages[m]!.role === bodies[k]!.role)) return;
    const seg = input.segments[s] as PartSegment;
    const mask = seg.kind === "generated" ? 1 : 0;
    group.forEach((m, k) => {
      const msg = messages[m]!;
      const content = msg.blocks.flatMap((b) => b.spans);
      const blocks = bodyBlocks(
        bodies[k]!.blocks,
        mask,
        content[0]?.start ?? msg.start,
        content[content.length - 1]?.end ?? msg.end,
      );
      if (blocks.length === 0) return;
      messages[m] = { ...msg, blocks, source: seg.part === "output" ? "response" : "request" };
    });
  });
  return messages;
}

/** Without a template, a segment with a parsed body becomes the body's messages (over its range). */
function fromBodiesPlain(
  messages: Message[],
  keyOf: readonly number[],
  input: ConversationInput,
): Message[] {
  const out: Message[] = [];
  messages.forEach((msg, i) => {
    const s = keyOf[i] as number;
    const bodies = s >= 0 ? bodiesFor(input, s) : null;
    const seg = input.segments[s];
    if (!bodies || bodies.length === 0 || !seg) return void out.push(msg);
    const mask = seg.kind === "generated" ? 1 : 0;
    const source = seg.part === "output" ? "response" : "request";
    for (const b of bodies) {
      const blocks = bodyBlocks(b.blocks, mask, msg.start, msg.end);
      out.push({
        ...msg,
        role: b.role,
        label: b.label,
        source,
        exact: bodies.length === 1,
        blocks,
      });
    }
  });
  return out;
}

/**
 * Side calls and failed calls in time order, each placed just before the first generated message
 * of a call created after it (its input stays above it: it happened while the agent was waiting).
 */
function placeEvents(messages: readonly Message[], input: ConversationInput): ConversationItem[] {
  const events = [...input.events].sort((a, b) => a.time - b.time);
  const timeOf = new Map(input.calls.map((c) => [c.id, c.createdAt]));
  const items: ConversationItem[] = [];
  let e = 0;
  for (const m of messages) {
    const t = timeOf.get(m.call);
    if (m.generated > 0 && t !== undefined) {
      while (e < events.length && (events[e] as ConversationEvent).time < t)
        items.push({ ...(events[e++] as ConversationEvent).item, index: items.length });
    }
    items.push({ ...m, index: items.length });
  }
  while (e < events.length)
    items.push({ ...(events[e++] as ConversationEvent).item, index: items.length });
  return items;
}
