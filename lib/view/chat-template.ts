// Splits a flattened token sequence into chat messages at its template's special-token markers
// (ChatML `<|im_start|>role\n … <|im_end|>`, Llama 3 `<|start_header_id|>role<|end_header_id|>
// … <|eot_id|>`), or into its segments when no template is recognised; and finds reasoning and
// tool-call blocks inside message text. Works on token ranges only: it builds no message text.
import type { ChatTemplate, ConversationBlockKind, ConversationRole } from "@/lib/schema";

/** A sequence as columns, one entry per token (positions are indices). */
export interface TokenColumns {
  /** Decoded text of each token: a special token's name; the id when there is no tokenizer. */
  text: readonly string[];
  /** 1 where the token is a special (added) token: only those count as markers. */
  special: Uint8Array;
  mask: Uint8Array;
  /** NaN where the token has no log prob (re-fed tokens). */
  logProb: Float64Array;
  /** Index of the token's call in the sequence's call list. */
  call: Int32Array;
}

/** One message's token ranges: [start, end) holds it all; its content is [contentStart, contentEnd). */
export interface RawMessage {
  label: string;
  start: number;
  end: number;
  contentStart: number;
  contentEnd: number;
  /** Characters of the first content token that still belong to the header (`user\nHi`). */
  skip: number;
}

export interface SequenceSegment {
  call: number;
  kind: "inherited" | "prompt" | "interstitial" | "generated";
  start: number;
  length: number;
}

interface Markers {
  open: string;
  /** Null: the header ends with the first newline (ChatML). */
  headerEnd: string | null;
  close: ReadonlySet<string>;
}

const CHATML: Markers = { open: "<|im_start|>", headerEnd: null, close: new Set(["<|im_end|>"]) };
const LLAMA3: Markers = {
  open: "<|start_header_id|>",
  headerEnd: "<|end_header_id|>",
  close: new Set(["<|eot_id|>", "<|eom_id|>"]),
};
/** A header longer than this is not a header: the open marker was text the model wrote. */
const MAX_HEADER_TOKENS = 8;

export function detectTemplate(cols: TokenColumns): ChatTemplate {
  for (let i = 0; i < cols.special.length; i++) {
    if (!cols.special[i]) continue;
    if (cols.text[i] === CHATML.open) return "chatml";
    if (cols.text[i] === LLAMA3.open) return "llama3";
  }
  return "plain";
}

export function splitMessages(cols: TokenColumns, template: "chatml" | "llama3"): RawMessage[] {
  const m = template === "chatml" ? CHATML : LLAMA3;
  const n = cols.text.length;
  const out: RawMessage[] = [];
  const isSpecial = (i: number, name: string) => cols.special[i] === 1 && cols.text[i] === name;
  let outside = 0; // first token not yet in a message
  let i = 0;
  while (i < n) {
    if (!isSpecial(i, m.open)) {
      i++;
      continue;
    }
    const lead = flushOutside(cols, out, outside, i);
    const header = readHeader(cols, m, i + 1, n);
    let j = header.contentStart;
    while (
      j < n &&
      !(cols.special[j] === 1 && (m.close.has(cols.text[j] as string) || cols.text[j] === m.open))
    )
      j++;
    const closed = j < n && m.close.has(cols.text[j] as string);
    const end = closed ? j + 1 : j;
    out.push({
      label: header.label,
      start: lead,
      end,
      contentStart: header.contentStart,
      contentEnd: j,
      skip: header.skip,
    });
    outside = end;
    i = end;
  }
  flushOutside(cols, out, outside, n);
  return out;
}

function readHeader(cols: TokenColumns, m: Markers, from: number, n: number) {
  const parts: string[] = [];
  for (let j = from; j < n && j < from + MAX_HEADER_TOKENS; j++) {
    const t = cols.text[j] as string;
    if (m.headerEnd !== null) {
      if (cols.special[j] === 1 && t === m.headerEnd)
        return { label: parts.join("").trim(), contentStart: j + 1, skip: 0 };
      parts.push(t);
      continue;
    }
    const nl = t.indexOf("\n");
    if (nl < 0) {
      parts.push(t);
      continue;
    }
    parts.push(t.slice(0, nl));
    const rest = t.length - nl - 1;
    return {
      label: parts.join("").trim(),
      contentStart: rest > 0 ? j : j + 1,
      skip: rest > 0 ? nl + 1 : 0,
    };
  }
  return { label: "", contentStart: from, skip: 0 };
}

/**
 * Tokens between messages: whitespace and specials (a BOS) join the message before, or the next
 * one at the start; anything else is a message of its own. Returns where the next message starts.
 */
function flushOutside(cols: TokenColumns, out: RawMessage[], from: number, to: number): number {
  if (to <= from) return to;
  let blank = true;
  for (let k = from; k < to && blank; k++)
    blank = cols.special[k] === 1 || (cols.text[k] as string).trim() === "";
  const prev = out[out.length - 1];
  if (blank && !prev) return from;
  if (blank && prev) prev.end = to;
  else out.push({ label: "", start: from, end: to, contentStart: from, contentEnd: to, skip: 0 });
  return to;
}

/** No template: each segment as it is (root prompt, interstitial, generation). */
export function splitSegments(segments: readonly SequenceSegment[]): RawMessage[] {
  return segments
    .filter((s) => s.length > 0)
    .map((s) => ({
      label: s.kind,
      start: s.start,
      end: s.start + s.length,
      contentStart: s.start,
      contentEnd: s.start + s.length,
      skip: 0,
    }));
}

/** The domain role for a role name as a template or an API wrote it. */
export function roleOf(label: string): ConversationRole {
  const word = (label.trim().split(/\s/, 1)[0] ?? "").toLowerCase();
  if (word === "system" || word === "developer") return "system";
  if (word === "user" || word === "human") return "user";
  if (word === "assistant" || word === "model" || word === "gpt" || word === "generated")
    return "assistant";
  if (word === "tool" || word === "ipython" || word === "function" || word === "tool_response")
    return "tool";
  return "other";
}

/** A block found in message text: a [from, to) character range, trimmed of surrounding whitespace. */
export interface TextBlock {
  kind: ConversationBlockKind;
  from: number;
  to: number;
  name: string | null;
}

type Tag = readonly [open: string, close: string, kind: ConversationBlockKind];
const THINK: Tag = ["<think>", "</think>", "reasoning"];
const TOOL_CALL: Tag = ["<tool_call>", "</tool_call>", "tool_call"];
const TOOL_RESPONSE: Tag = ["<tool_response>", "</tool_response>", "tool_result"];
const PYTHON_TAG = "<|python_tag|>";

/**
 * Reasoning and tool calls inside message text, by the tags chat templates write: `<think>` and
 * `<tool_call>` (or Llama's `<|python_tag|>`) in assistant turns, `<tool_response>` in tool and
 * user turns (Qwen sends tool output as the user). System prompts that merely mention the tags
 * stay text. Linear: one forward scan.
 */
export function findBlocks(
  text: string,
  role: ConversationRole,
  template: ChatTemplate,
): TextBlock[] {
  const out: TextBlock[] = [];
  const plain: ConversationBlockKind = role === "tool" ? "tool_result" : "text";
  const push = (kind: ConversationBlockKind, from: number, to: number) => {
    while (from < to && /\s/.test(text[from] as string)) from++;
    while (to > from && /\s/.test(text[to - 1] as string)) to--;
    if (to > from)
      out.push({
        kind,
        from,
        to,
        name: kind === "tool_call" ? toolName(text.slice(from, to)) : null,
      });
  };
  const assistant = role === "assistant";
  const tags = assistant
    ? [THINK, TOOL_CALL]
    : role === "tool" || role === "user"
      ? [TOOL_RESPONSE]
      : [];
  let at = 0;
  // A template that opens <think> in the prompt leaves only its close in the generation.
  const close = assistant ? text.indexOf("</think>") : -1;
  const open = text.indexOf("<think>");
  if (close >= 0 && (open < 0 || close < open)) {
    push("reasoning", 0, close);
    at = close + "</think>".length;
  }
  const python = assistant ? text.indexOf(PYTHON_TAG, at) : -1;
  const limit = python >= 0 ? python : text.length;
  // Where each tag next opens, searched again only once passed: one scan per tag overall.
  const found = tags.map((t) => text.indexOf(t[0], at));
  while (at < limit) {
    let next = -1;
    let tag: Tag | undefined;
    for (let i = 0; i < tags.length; i++) {
      if ((found[i] as number) >= 0 && (found[i] as number) < at)
        found[i] = text.indexOf(tags[i]![0], at);
      const k = found[i] as number;
      if (k >= 0 && k < limit && (next < 0 || k < next)) [next, tag] = [k, tags[i]];
    }
    if (!tag) break;
    push(plain, at, next);
    const inner = next + tag[0].length;
    const end = text.indexOf(tag[1], inner);
    push(tag[2], inner, end < 0 ? limit : Math.min(end, limit));
    at = end < 0 ? limit : end + tag[1].length;
  }
  push(plain, at, limit);
  if (python >= 0) push("tool_call", python + PYTHON_TAG.length, text.length);
  const whole = out.length === 1 && out[0]!.kind === "text" && assistant;
  return whole && template === "llama3" ? jsonToolCall(text, out[0]!) : out;
}

/** Llama 3 writes a plain tool call as the whole message: `{"name": …, "parameters": …}`. */
function jsonToolCall(text: string, b: TextBlock): TextBlock[] {
  if (text[b.from] !== "{" || text[b.to - 1] !== "}") return [b];
  const name = toolName(text.slice(b.from, b.to));
  return name === null ? [b] : [{ ...b, kind: "tool_call", name }];
}

function toolName(json: string): string | null {
  try {
    const v: unknown = JSON.parse(json);
    if (v && typeof v === "object" && "name" in v && typeof v.name === "string") return v.name;
  } catch {
    // Not JSON (a truncated generation, or another tool-call syntax): the block has no name.
  }
  return null;
}
