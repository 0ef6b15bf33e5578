import { describe, expect, it } from "vitest";
import { newInputMessages, requestMessages, responseMessage } from "./message-bodies";

describe("exchange bodies", () => {
  it("chat completions: request messages and a reply with reasoning and tool calls", () => {
    const req = requestMessages("chat", {
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "List files." }] },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "t1", type: "function", function: { name: "ls", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "t1", content: "a.txt" },
      ],
    });
    expect(
      req?.map((m) => [m.role, m.blocks.map((b) => [b.kind, b.text, b.name, b.tool_call_id])]),
    ).toEqual([
      ["system", [["text", "Be brief.", null, null]]],
      ["user", [["text", "List files.", null, null]]],
      ["assistant", [["tool_call", "{}", "ls", "t1"]]],
      ["tool", [["tool_result", "a.txt", null, "t1"]]],
    ]);
    expect(newInputMessages(req!, false).map((m) => m.role)).toEqual(["tool"]);
    expect(newInputMessages(req!, true)).toHaveLength(4);
    const reply = responseMessage("chat", {
      choices: [
        {
          message: {
            role: "assistant",
            reasoning_content: "think",
            content: "One file.",
            tool_calls: [],
          },
        },
      ],
    });
    expect(reply?.blocks.map((b) => [b.kind, b.text])).toEqual([
      ["reasoning", "think"],
      ["text", "One file."],
    ]);
    expect(responseMessage("chat", { detail: [{ type: "extra_forbidden" }] })).toBeNull();
    expect(requestMessages("chat", { model: "m", stream: false })).toBeNull();
  });

  it("responses API: instructions, input items and output items merged into one assistant turn", () => {
    const req = requestMessages("responses", {
      instructions: "Be brief.",
      input: [
        { role: "user", content: [{ type: "input_text", text: "List files." }] },
        { type: "reasoning", summary: [{ type: "summary_text", text: "use ls" }] },
        { type: "function_call", call_id: "c1", name: "ls", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: "a.txt" },
      ],
    });
    expect(req?.map((m) => [m.role, m.blocks.map((b) => b.kind)])).toEqual([
      ["system", ["text"]],
      ["user", ["text"]],
      ["assistant", ["reasoning", "tool_call"]],
      ["tool", ["tool_result"]],
    ]);
    const reply = responseMessage("responses", {
      output: [
        { type: "reasoning", summary: [{ text: "done" }] },
        {
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: "One file." }],
        },
      ],
    });
    expect(reply?.blocks.map((b) => [b.kind, b.text])).toEqual([
      ["reasoning", "done"],
      ["text", "One file."],
    ]);
    expect(requestMessages("responses", { input: "hello" })?.[0]).toMatchObject({
      role: "user",
      blocks: [{ text: "hello" }],
    });
  });

  it("anthropic messages: system blocks, tool_use, tool results as the tool's turn, thinking", () => {
    const req = requestMessages("messages", {
      system: [{ type: "text", text: "Be brief." }],
      messages: [
        { role: "user", content: "List files." },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "tu1", name: "ls", input: { dir: "." } }],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "tu1", content: [{ type: "text", text: "a.txt" }] },
          ],
        },
      ],
    });
    expect(
      req?.map((m) => [m.label, m.role, m.blocks.map((b) => [b.kind, b.text, b.tool_call_id])]),
    ).toEqual([
      ["system", "system", [["text", "Be brief.", null]]],
      ["user", "user", [["text", "List files.", null]]],
      ["assistant", "assistant", [["tool_call", '{"dir":"."}', "tu1"]]],
      ["user", "tool", [["tool_result", "a.txt", "tu1"]]],
    ]);
    const reply = responseMessage("messages", {
      type: "message",
      role: "assistant",
      content: [
        { type: "thinking", thinking: "hmm" },
        { type: "text", text: "One file." },
      ],
    });
    expect(reply?.blocks.map((b) => b.kind)).toEqual(["reasoning", "text"]);
  });
});
