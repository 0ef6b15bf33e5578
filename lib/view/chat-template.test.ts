import { describe, expect, it } from "vitest";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { o200kDecoder } from "@/lib/tokens/decoder";
import {
  detectTemplate,
  findBlocks,
  roleOf,
  splitMessages,
  splitSegments,
  type TokenColumns,
} from "./chat-template";

/** Columns from written-out tokens: `[text, special?]`; everything re-fed (mask 0). */
function columns(tokens: ReadonlyArray<string | [string, 1]>, mask?: number[]): TokenColumns {
  const n = tokens.length;
  return {
    text: tokens.map((t) => (typeof t === "string" ? t : t[0])),
    special: Uint8Array.from(tokens.map((t) => (typeof t === "string" ? 0 : 1))),
    mask: Uint8Array.from(mask ?? new Array<number>(n).fill(0)),
    logProb: new Float64Array(n).fill(NaN),
    call: new Int32Array(n),
  };
}

const S = (name: string): [string, 1] => [name, 1];
const contentOf = (
  cols: TokenColumns,
  m: { contentStart: number; contentEnd: number; skip: number },
) => cols.text.slice(m.contentStart, m.contentEnd).join("").slice(m.skip);

describe("ChatML", () => {
  const toks = [
    S("<|im_start|>"),
    "system",
    "\n",
    "Be brief.",
    S("<|im_end|>"),
    "\n",
    S("<|im_start|>"),
    "user",
    "\n",
    "Hi",
    S("<|im_end|>"),
    "\n",
    S("<|im_start|>"),
    "assistant",
    "\n",
    "Hello",
    " there",
    S("<|im_end|>"),
  ];

  it("splits at <|im_start|> and <|im_end|>, the newline after a message joining it", () => {
    const cols = columns(toks);
    expect(detectTemplate(cols)).toBe("chatml");
    const msgs = splitMessages(cols, "chatml");
    expect(msgs.map((m) => [m.label, m.start, m.end, m.contentStart, m.contentEnd])).toEqual([
      ["system", 0, 6, 3, 4],
      ["user", 6, 12, 9, 10],
      ["assistant", 12, 18, 15, 17],
    ]);
    expect(msgs.map((m) => contentOf(cols, m))).toEqual(["Be brief.", "Hi", "Hello there"]);
  });

  it("a generation cut before <|im_end|> runs to the end; text outside messages is its own message", () => {
    const cols = columns([
      S("<|im_start|>"),
      "user",
      "\n",
      "Q",
      S("<|im_end|>"),
      "stray",
      S("<|im_start|>"),
      "assistant",
      "\n",
      "partial",
    ]);
    const msgs = splitMessages(cols, "chatml");
    expect(msgs.map((m) => [m.label, m.start, m.end])).toEqual([
      ["user", 0, 5],
      ["", 5, 6],
      ["assistant", 6, 10],
    ]);
    expect(roleOf(msgs[1]!.label)).toBe("other");
  });

  it("a header token that runs into the content keeps the rest as content", () => {
    const cols = columns([S("<|im_start|>"), "user\nHi", " all", S("<|im_end|>")]);
    const [m] = splitMessages(cols, "chatml");
    expect(m).toMatchObject({ label: "user", contentStart: 1, skip: 5 });
    expect(contentOf(cols, m!)).toBe("Hi all");
  });

  it("only special tokens are markers: the text '<|im_start|>' a model wrote is content", () => {
    const cols = columns([
      S("<|im_start|>"),
      "assistant",
      "\n",
      "<|im_start|>",
      "user",
      S("<|im_end|>"),
    ]);
    const msgs = splitMessages(cols, "chatml");
    expect(msgs).toHaveLength(1);
    expect(contentOf(cols, msgs[0]!)).toBe("<|im_start|>user");
  });

  it("round-trips a transcript tokenized with o200k_base", async () => {
    const dec = await o200kDecoder();
    const turns: Array<[string, string]> = [
      ["system", "You are terse."],
      ["user", "Sum 2 and 3 — émoji 🚀?"],
      ["assistant", "5"],
    ];
    const ids = turns.flatMap(([role, text]) => [
      200003,
      ...encode(`${role}\n`),
      ...encode(text),
      200004,
      ...encode("\n"),
    ]);
    const pieces = ids.map((id) => dec.piece(id));
    const cols = columns(pieces.map((p) => (p.kind === "special" ? S(p.text) : p.text)));
    const msgs = splitMessages(cols, "chatml");
    expect(msgs.map((m) => m.label)).toEqual(["system", "user", "assistant"]);
    // Contents decoded from the ids of each range, independently of the pieces.
    expect(msgs.map((m) => dec.decode(ids.slice(m.contentStart, m.contentEnd)))).toEqual(
      turns.map((t) => t[1]),
    );
    expect(msgs[msgs.length - 1]!.end).toBe(ids.length);
  });
});

describe("Llama 3", () => {
  it("splits at header ids and <|eot_id|>/<|eom_id|>, a BOS joining the first message", () => {
    const cols = columns([
      S("<|begin_of_text|>"),
      S("<|start_header_id|>"),
      "system",
      S("<|end_header_id|>"),
      "\n\n",
      "Be kind.",
      S("<|eot_id|>"),
      S("<|start_header_id|>"),
      "ipython",
      S("<|end_header_id|>"),
      "\n\n",
      "42",
      S("<|eot_id|>"),
      S("<|start_header_id|>"),
      "assistant",
      S("<|end_header_id|>"),
      "\n\n",
      S("<|python_tag|>"),
      '{"name": "calc"}',
      S("<|eom_id|>"),
    ]);
    expect(detectTemplate(cols)).toBe("llama3");
    const msgs = splitMessages(cols, "llama3");
    expect(msgs.map((m) => [m.label, m.start, m.end, m.contentStart, m.contentEnd])).toEqual([
      ["system", 0, 7, 4, 6],
      ["ipython", 7, 13, 10, 12],
      ["assistant", 13, 20, 16, 19],
    ]);
    expect(msgs.map((m) => roleOf(m.label))).toEqual(["system", "tool", "assistant"]);
    const blocks = findBlocks(contentOf(cols, msgs[2]!), "assistant", "llama3");
    expect(blocks).toEqual([{ kind: "tool_call", from: 16, to: 32, name: "calc" }]);
  });

  it("a whole-JSON assistant turn is a tool call under Llama 3, text under ChatML", () => {
    const text = '{"name": "get_weather", "parameters": {"city": "Oslo"}}';
    expect(findBlocks(text, "assistant", "llama3")[0]).toMatchObject({
      kind: "tool_call",
      name: "get_weather",
    });
    expect(findBlocks(text, "assistant", "chatml")[0]).toMatchObject({ kind: "text", name: null });
  });
});

describe("plain fallback", () => {
  it("one message per non-empty segment, as it is", () => {
    const segs = [
      { call: 0, kind: "prompt" as const, start: 0, length: 5 },
      { call: 0, kind: "generated" as const, start: 5, length: 3 },
      { call: 1, kind: "interstitial" as const, start: 8, length: 0 },
      { call: 1, kind: "generated" as const, start: 8, length: 2 },
    ];
    expect(splitSegments(segs).map((m) => [m.label, m.start, m.end, roleOf(m.label)])).toEqual([
      ["prompt", 0, 5, "other"],
      ["generated", 5, 8, "assistant"],
      ["generated", 8, 10, "assistant"],
    ]);
    expect(detectTemplate(columns(["a", "b"]))).toBe("plain");
  });
});

describe("blocks inside message text", () => {
  const slice = (text: string, bs: ReturnType<typeof findBlocks>) =>
    bs.map((b) => [b.kind, text.slice(b.from, b.to), b.name]);

  it("reasoning, text and tool calls in an assistant turn, trimmed", () => {
    const text =
      '<think>\nlook first\n</think>\nI will read it.\n<tool_call>\n{"name": "Read", "arguments": {"p": 1}}\n</tool_call>';
    expect(slice(text, findBlocks(text, "assistant", "chatml"))).toEqual([
      ["reasoning", "look first", null],
      ["text", "I will read it.", null],
      ["tool_call", '{"name": "Read", "arguments": {"p": 1}}', "Read"],
    ]);
  });

  it("a generation that only closes </think> (opened by the template) and an unclosed tool call", () => {
    const text = 'plan it</think>answer<tool_call>{"name": "x"';
    expect(slice(text, findBlocks(text, "assistant", "chatml"))).toEqual([
      ["reasoning", "plan it", null],
      ["text", "answer", null],
      ["tool_call", '{"name": "x"', null],
    ]);
  });

  it("tool output in <tool_response>; a system prompt that names the tags stays text", () => {
    const tool = "<tool_response>\nok\n</tool_response>";
    expect(slice(tool, findBlocks(tool, "tool", "chatml"))).toEqual([["tool_result", "ok", null]]);
    const sys = "Return JSON inside <tool_call></tool_call> tags. <think> is private.";
    expect(slice(sys, findBlocks(sys, "system", "chatml"))).toEqual([["text", sys, null]]);
  });

  it("is linear: thousands of tool calls in one message", () => {
    const text = Array.from(
      { length: 20_000 },
      (_, i) => `<tool_call>{"name": "t${i}"}</tool_call>`,
    ).join("\n");
    const t0 = performance.now();
    const blocks = findBlocks(text, "assistant", "chatml");
    expect(performance.now() - t0).toBeLessThan(500);
    expect(blocks).toHaveLength(20_000);
    expect(blocks[19_999]!.name).toBe("t19999");
  });
});
