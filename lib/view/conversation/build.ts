// A flattened sequence as a conversation: messages by role, split at the chat template's markers
// (or one per segment), each text span tied to its token range and loss mask; exchange bodies give
// structure (reasoning, tool calls) where they line up with the tokens; side calls and failed calls
// sit where they happened. Linear in tokens; pure. Not responsible for paging (./page).
import type {
  ChatTemplate,
  ConversationBlock,
  ConversationFailedCall,
  ConversationItem,
  ConversationSideCall,
} from "@/lib/schema";
import {
  detectTemplate,
  splitMessages,
  splitSegments,
  type RawMessage,
  type SequenceSegment,
  type TokenColumns,
} from "../chat-template";
import { tokenMessage, type Message } from "./spans";
import { newInputMessages, type BodyBlock, type BodyMessage } from "../message-bodies";

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
  /** Each item's token range as the template split it (null for side and failed calls). */
  raws: Array<RawMessage | null>;
  length: number;
  generated: number;
}

export function buildConversation(input: ConversationInput): Conversation {
  const { columns: cols, segments } = input;
  const template = detectTemplate(cols);
  const segOf = segmentIndex(segments, cols.text.length);
  const raws = template === "plain" ? splitSegments(segments) : splitMessages(cols, template);
  const callIds = input.calls.map((c) => c.id);
  const built = raws.map((raw) => tokenMessage(cols, raw, template, callIds));
  const keyOf = raws.map((raw) => wholeSegment(segOf, raw));
  const { messages, from } =
    template === "plain"
      ? fromBodiesPlain(built, keyOf, input)
      : { messages: enrich(built, keyOf, input), from: raws.map((_, i) => i) };
  let generated = 0;
  for (let i = 0; i < cols.mask.length; i++) generated += cols.mask[i] as number;
  const placed = placeEvents(messages, input);
  const itemRaws = placed.of.map((m) => (m < 0 ? null : (raws[from[m] as number] ?? null)));
  return { template, items: placed.items, raws: itemRaws, length: cols.text.length, generated };
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
): { messages: Message[]; from: number[] } {
  const out: Message[] = [];
  const from: number[] = []; // the token message each one came from
  messages.forEach((msg, i) => {
    const s = keyOf[i] as number;
    const bodies = s >= 0 ? bodiesFor(input, s) : null;
    const seg = input.segments[s];
    if (!bodies || bodies.length === 0 || !seg) return void (out.push(msg), from.push(i));
    const mask = seg.kind === "generated" ? 1 : 0;
    const source = seg.part === "output" ? "response" : "request";
    for (const b of bodies) {
      const blocks = bodyBlocks(b.blocks, mask, msg.start, msg.end);
      from.push(i);
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
  return { messages: out, from };
}

/**
 * Side calls and failed calls in time order, each placed just before the first generated message
 * of a call created after it (its input stays above it: it happened while the agent was waiting).
 */
function placeEvents(
  messages: readonly Message[],
  input: ConversationInput,
): { items: ConversationItem[]; of: number[] } {
  const events = [...input.events].sort((a, b) => a.time - b.time);
  const timeOf = new Map(input.calls.map((c) => [c.id, c.createdAt]));
  const items: ConversationItem[] = [];
  const of: number[] = []; // each item's message, -1 for an event
  const event = (e: ConversationEvent) => (
    items.push({ ...e.item, index: items.length }),
    of.push(-1)
  );
  let e = 0;
  messages.forEach((m, k) => {
    const t = timeOf.get(m.call);
    if (m.generated > 0 && t !== undefined) {
      while (e < events.length && (events[e] as ConversationEvent).time < t)
        event(events[e++] as ConversationEvent);
    }
    items.push({ ...m, index: items.length });
    of.push(k);
  });
  while (e < events.length) event(events[e++] as ConversationEvent);
  return { items, of };
}
