import { describe, expect, it } from "vitest";
import type { ConversationMessage } from "@/lib/schema/api-conversation";
import {
  call,
  gen1,
  gen2,
  inter,
  messages,
  msg,
  root,
  sequence,
  sp,
  textOf,
  tx,
  type Part,
} from "@/lib/testing/conversation-tokens";
import { buildConversation, type ConversationEvent, type PartSegment } from "./build";
import { requestMessages, responseMessage } from "../message-bodies";

describe("mask ranges", () => {
  it("each message's spans carry the exact token ranges of generated and re-fed text", () => {
    const seq = sequence([root, gen1, inter, gen2]);
    const conv = buildConversation({ ...seq, calls: [call("c0", 10), call("c1", 20)], events: [] });
    expect(conv.template).toBe("chatml");
    const ms = messages(conv.items);
    expect(ms.map((m) => [m.role, textOf(m)])).toEqual([
      ["system", "Be brief."],
      ["user", "List files."],
      ["assistant", '{"name": "ls"}'],
      ["tool", "a.txt"],
      ["assistant", "One file."],
    ]);
    // Positions by hand: root prompt 15 tokens (6 + 6 + 3), gen1 4, interstitial 12, gen2 3.
    const [, , a1, tool, a2] = ms;
    expect(a1).toMatchObject({ start: 12, end: 20, generated: 4, mean_log_prob: -0.5 });
    expect(a1!.blocks[0]).toMatchObject({
      kind: "tool_call",
      name: "ls",
      spans: [{ mask: 1, start: 16, end: 17 }],
    });
    expect(tool!.blocks[0]!.spans).toEqual([{ text: "a.txt", mask: 0, start: 24, end: 25 }]);
    expect(a2).toMatchObject({ start: 28, end: 34, generated: 3 });
    expect(a2!.blocks[0]!.spans).toEqual([{ text: "One file.", mask: 1, start: 31, end: 33 }]);
    expect(conv).toMatchObject({ length: 34, generated: 7 });
  });

  it("an assistant turn the harness prefilled shows re-fed and generated text apart", () => {
    const prompt: Part = {
      call: 0,
      kind: "prompt",
      toks: [...msg("user", "Hi"), sp("<|im_start|>"), ...tx("assistant", "\n", "Sure,")],
    };
    const gen: Part = {
      call: 0,
      kind: "generated",
      toks: [...tx(" here", " it is."), sp("<|im_end|>")],
    };
    const conv = buildConversation({
      ...sequence([prompt, gen]),
      calls: [call("c0", 1)],
      events: [],
    });
    const a = messages(conv.items)[1]!;
    expect(a.blocks[0]!.spans).toEqual([
      { text: "Sure,", mask: 0, start: 9, end: 10 },
      { text: " here it is.", mask: 1, start: 10, end: 12 },
    ]);
  });
});

describe("exchange bodies in the conversation", () => {
  it("bodies replace token blocks where they agree message for message, keeping the token ranges", () => {
    const seq = sequence([root, gen1, inter, gen2]);
    const reply1 = responseMessage("chat", {
      choices: [
        {
          message: {
            role: "assistant",
            content: null,
            reasoning_content: "need ls",
            tool_calls: [{ id: "x", function: { name: "ls", arguments: "{}" } }],
          },
        },
      ],
    });
    // Call 1's request disagrees with its tokens (two new messages for one): its tokens stay.
    const req1 = requestMessages("chat", {
      messages: [
        { role: "assistant", content: "x" },
        { role: "tool", content: "a.txt" },
        { role: "user", content: "more" },
      ],
    });
    const calls = [call("c0", 10, { response: reply1 }), call("c1", 20, { request: req1 })];
    const ms = messages(buildConversation({ ...seq, calls, events: [] }).items);
    expect(ms[2]).toMatchObject({ source: "response", start: 12, end: 20, generated: 4 });
    expect(ms[2]!.blocks.map((b) => [b.kind, b.spans])).toEqual([
      ["reasoning", [{ text: "need ls", mask: 1, start: 16, end: 17 }]],
      ["tool_call", [{ text: "{}", mask: 1, start: 16, end: 17 }]],
    ]);
    expect(ms[3]).toMatchObject({ source: "tokens", role: "tool" });
  });

  it("without a template, bodies give the messages over their segment's range", () => {
    const plain = (n: number) => tx(...Array.from({ length: n }, (_, i) => `${i} `));
    const seq = sequence([
      { call: 0, kind: "prompt", toks: plain(6) },
      { call: 0, kind: "generated", toks: plain(2) },
    ]);
    const req = requestMessages("chat", {
      messages: [
        { role: "system", content: "S" },
        { role: "user", content: "U" },
      ],
    });
    const conv = buildConversation({
      ...seq,
      calls: [call("c0", 1, { request: req })],
      events: [],
    });
    expect(conv.template).toBe("plain");
    expect(
      messages(conv.items).map((m) => [m.role, m.source, m.start, m.end, m.exact, textOf(m)]),
    ).toEqual([
      ["system", "request", 0, 6, false, "S"],
      ["user", "request", 0, 6, false, "U"],
      ["assistant", "segment", 6, 8, true, "0 1"],
    ]);
  });
});

describe("side calls and failed calls", () => {
  const side = (id: string, time: number): ConversationEvent => ({
    time,
    item: {
      kind: "side_call",
      call: id,
      sequence: `call:${id}`,
      created_at: time,
      reason: "r",
      model: "small",
      prompt_len: 3,
      generated_len: 1,
      preview: "OK",
    },
  });

  it("places each event before the first reply of a call created after it", () => {
    const seq = sequence([root, gen1, inter, gen2]);
    const failed: ConversationEvent = {
      time: 25,
      item: {
        kind: "failed_call",
        call: "f",
        started_at: 25,
        status_code: 422,
        error: "extra_forbidden",
      },
    };
    const conv = buildConversation({
      ...seq,
      calls: [call("c0", 10), call("c1", 20)],
      events: [failed, side("s2", 15), side("s1", 5)],
    });
    expect(conv.items.map((i) => (i.kind === "message" ? i.role : `${i.kind}:${i.call}`))).toEqual([
      "system",
      "user",
      "side_call:s1",
      "assistant",
      "tool",
      "side_call:s2",
      "assistant",
      "failed_call:f",
    ]);
    expect(conv.items.map((i) => i.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe("performance", () => {
  it("builds a 200k-token, 500-call ChatML chain in under a second", () => {
    const calls = 500,
      perCall = 400;
    const n = calls * perCall;
    const text: string[] = new Array<string>(n);
    const special = new Uint8Array(n),
      mask = new Uint8Array(n),
      call = new Int32Array(n);
    const logProb = new Float64Array(n).fill(NaN);
    const segments: PartSegment[] = [];
    for (let c = 0; c < calls; c++) {
      const base = c * perCall;
      // Input: tool message (header, 292 words, end) and the next assistant header; output: 100 tokens.
      const input = [
        "<|im_start|>",
        "tool",
        "\n",
        ...Array.from({ length: 292 }, (_, i) => ` w${i}`),
        "<|im_end|>",
        "\n",
        "<|im_start|>",
        "assistant",
        "\n",
      ];
      const output = [...Array.from({ length: 99 }, (_, i) => ` g${i}`), "<|im_end|>"];
      [...input, ...output].forEach((t, k) => {
        text[base + k] = t;
        special[base + k] = t.startsWith("<|") ? 1 : 0;
        call[base + k] = c;
        if (k >= input.length) [mask[base + k], logProb[base + k]] = [1, -0.1];
      });
      segments.push({
        call: c,
        kind: c === 0 ? "prompt" : "interstitial",
        part: "input",
        start: base,
        length: input.length,
      });
      segments.push({
        call: c,
        kind: "generated",
        part: "output",
        start: base + input.length,
        length: output.length,
      });
    }
    const t0 = performance.now();
    const conv = buildConversation({
      columns: { text, special, mask, logProb, call },
      segments,
      calls: Array.from({ length: calls }, (_, c) => ({
        id: `c${c}`,
        createdAt: c,
        request: null,
        response: null,
      })),
      events: [],
    });
    const ms = performance.now() - t0;
    expect(ms).toBeLessThan(1000);
    expect(conv.items).toHaveLength(2 * calls);
    expect(conv.generated).toBe(calls * 100);
    const last = conv.items[conv.items.length - 1] as ConversationMessage;
    expect(last).toMatchObject({ role: "assistant", generated: 100, start: n - 103, end: n });
  });
});
