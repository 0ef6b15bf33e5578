// A token sequence for conversation tests, built from parts the way a capture lays them out (ChatML
// messages, prompt / generated / interstitial segments), plus a two-call ChatML agent and helpers to
// read messages back. Positions are the parts' lengths, so tests can state token ranges by hand.
import type { ConversationItem, ConversationMessage } from "@/lib/schema/api-conversation";
import type { TokenColumns } from "@/lib/view/chat-template";
import type { ConversationCall, PartSegment } from "@/lib/view/conversation/build";

export type Tok = { text: string; special?: boolean };
export interface Part {
  call: number;
  kind: PartSegment["kind"];
  toks: Tok[];
}

export const sp = (text: string): Tok => ({ text, special: true });
export const tx = (...texts: string[]): Tok[] => texts.map((text) => ({ text }));
export const msg = (role: string, ...body: string[]): Tok[] => [
  sp("<|im_start|>"),
  ...tx(role, "\n", ...body),
  sp("<|im_end|>"),
  ...tx("\n"),
];

/** Columns and segments from parts; generated parts get mask 1 and log prob -0.5 per token. */
export function sequence(parts: Part[]): { columns: TokenColumns; segments: PartSegment[] } {
  const toks = parts.flatMap((p) => p.toks.map((t) => ({ ...t, p })));
  const n = toks.length;
  const columns: TokenColumns = {
    text: toks.map((t) => t.text),
    special: Uint8Array.from(toks.map((t) => (t.special ? 1 : 0))),
    mask: Uint8Array.from(toks.map((t) => (t.p.kind === "generated" ? 1 : 0))),
    logProb: Float64Array.from(toks.map((t) => (t.p.kind === "generated" ? -0.5 : NaN))),
    call: Int32Array.from(toks.map((t) => t.p.call)),
  };
  const segments: PartSegment[] = [];
  let at = 0;
  for (const p of parts) {
    segments.push({
      call: p.call,
      kind: p.kind,
      part: p.kind === "generated" ? "output" : "input",
      start: at,
      length: p.toks.length,
    });
    at += p.toks.length;
  }
  if (at !== n) throw new Error(`segments cover ${at} of ${n} tokens`);
  return { columns, segments };
}

export const call = (
  id: string,
  createdAt: number,
  extra: Partial<ConversationCall> = {},
): ConversationCall => ({ id, createdAt, request: null, response: null, ...extra });
export const messages = (items: ConversationItem[]) =>
  items.filter((i): i is ConversationMessage => i.kind === "message");
export const textOf = (m: ConversationMessage) =>
  m.blocks.map((b) => b.spans.map((s) => s.text).join("")).join(" | ");

// Two calls of a ChatML agent: the root prompt (system, user, assistant header), a generation with
// a tool call, then the tool result and the next header re-fed, and a final answer.
export const root: Part = {
  call: 0,
  kind: "prompt",
  toks: [
    ...msg("system", "Be brief."),
    ...msg("user", "List files."),
    sp("<|im_start|>"),
    ...tx("assistant", "\n"),
  ],
};
export const gen1: Part = {
  call: 0,
  kind: "generated",
  toks: [...tx("<tool_call>", '{"name": "ls"}', "</tool_call>"), sp("<|im_end|>")],
};
export const inter: Part = {
  call: 1,
  kind: "interstitial",
  toks: [
    ...tx("\n"),
    ...msg("tool", "<tool_response>", "a.txt", "</tool_response>"),
    sp("<|im_start|>"),
    ...tx("assistant", "\n"),
  ],
};
export const gen2: Part = {
  call: 1,
  kind: "generated",
  toks: [...tx("One", " file."), sp("<|im_end|>")],
};
