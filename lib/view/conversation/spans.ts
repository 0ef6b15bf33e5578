// A message as the chat template's markers delimit it in the tokens: its content split into blocks
// (text, reasoning, tool calls) with the template's markers and headers left out, each block's
// text as mask spans tied to token positions; its generated count and mean log prob. Pure; where
// messages start and end is ./chat-template, exchange bodies and events ./build.
import type { ChatTemplate, ConversationBlock, ConversationMessage, MaskSpan } from "@/lib/schema";
import { findBlocks, roleOf, type RawMessage, type TokenColumns } from "../chat-template";

export type Message = Omit<ConversationMessage, "index">;

/**
 * A message from its token range: content split into blocks, each block's text as spans of
 * consecutive tokens with one mask, or one span per token (`perToken`, for probability shading).
 */
export function tokenMessage(
  cols: TokenColumns,
  raw: RawMessage,
  template: ChatTemplate,
  callIds: readonly string[],
  perToken = false,
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
    spans: spansOf(cols, text, offsets, raw.contentStart, b.from, b.to, perToken),
    chars: b.to - b.from,
    truncated: false,
  }));
  const callAt = cols.call[n > 0 ? raw.contentStart : raw.start] ?? 0;
  return {
    kind: "message",
    role,
    label: raw.label,
    source: template === "plain" ? "segment" : "tokens",
    call: callIds[callAt] ?? "",
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
  perToken: boolean,
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
    if (!perToken && last && last.mask === mask && last.end === base + k)
      [last.end, last.b] = [base + k + 1, b];
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

/**
 * The blocks of one message for probability shading: built from `cols` (the message's own range
 * of the sequence, which starts at position `offset`) exactly as the unshaded view builds them,
 * template markers and headers left out, but one span per token so each can take its shade.
 */
export function shadedBlocks(
  cols: TokenColumns,
  raw: RawMessage,
  template: ChatTemplate,
  offset: number,
): ConversationBlock[] {
  return tokenMessage(cols, raw, template, [], true).blocks.map((b) => ({
    ...b,
    spans: b.spans.map((s) => ({ ...s, start: s.start + offset, end: s.end + offset })),
  }));
}
