// Probability shading in the conversation (`shade=1`): an assistant message keeps its own text,
// the chat template's markers and headers left out exactly as in the unshaded view, now one span
// per token so each can take its shade; every span's mask is its token's mask in the token route.
// Expected text comes from the fixture generator's transcript, not from the code under test.
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { CODING_TASKS } from "@/fixtures/generator/content";
import { IM_END, IM_START } from "@/fixtures/generator/conversation";
import { getRun } from "@/lib/runs/root";
import {
  conversationPageSchema,
  type ConversationItem,
  type ConversationMessage,
} from "@/lib/schema/api-conversation";
import { conversationPage, parseConversationQuery } from "./conversation";
import { inspectRollout } from "./rollout-model";
import { tokenWindow } from "./token-window";

const open = async (run: string, rollout: string) =>
  inspectRollout(await getRun(run, RUNS_DIR), rollout);
const replies = (items: ConversationItem[]) =>
  items.filter((i): i is ConversationMessage => i.kind === "message" && i.role === "assistant");
const textOf = (m: ConversationMessage, kind: string) =>
  m.blocks.filter((b) => b.kind === kind).map((b) => b.spans.map((s) => s.text).join(""));

describe("conversation shading", () => {
  it("parses shade=1 and refuses other values", () => {
    expect(parseConversationQuery(new URLSearchParams("shade=1")).shade).toBe(true);
    expect(parseConversationQuery(new URLSearchParams("shade=0")).shade).toBeUndefined();
    expect(() => parseConversationQuery(new URLSearchParams("shade=yes"))).toThrow(/shade/);
  });

  it("claude-code 10-0: each reply is its own text, token by token, with no template markers", async () => {
    const model = await open("claude-code-capture-on", "10-0");
    const q = { chain: "main", offset: 0, limit: 200, clip: 100_000 };
    const plain = conversationPageSchema.parse(conversationPage(model, q));
    const shaded = conversationPageSchema.parse(conversationPage(model, { ...q, shade: true }));
    expect(shaded.items.map((i) => [i.index, i.kind])).toEqual(
      plain.items.map((i) => [i.index, i.kind]),
    );
    const task = CODING_TASKS[0]!;
    const turns = replies(shaded.items);
    expect(turns).toHaveLength(task.steps.length + 1);
    task.steps.forEach((step, k) => {
      expect(textOf(turns[k]!, "reasoning")).toEqual(
        step.turn.reasoning ? [step.turn.reasoning] : [],
      );
      const calls = turns[k]!.blocks.filter((b) => b.kind === "tool_call");
      expect(calls.map((b) => b.name)).toEqual(step.turn.toolCalls!.map((c) => c.name));
    });
    expect(textOf(turns[turns.length - 1]!, "text")).toEqual([task.final.text]);

    const window = tokenWindow(model, "main", "0", String(shaded.length));
    for (const m of turns) {
      const spans = m.blocks.flatMap((b) => b.spans);
      const text = spans.map((s) => s.text).join("");
      for (const marker of [IM_START, IM_END, "assistant\n"]) expect(text).not.toContain(marker);
      expect(spans.length).toBeGreaterThan(0);
      for (const s of spans) {
        expect(s.end - s.start, "one token per span").toBe(1);
        expect(s.start).toBeGreaterThanOrEqual(m.start);
        expect(s.end).toBeLessThanOrEqual(m.end);
        expect(s.mask, `mask of token ${s.start}`).toBe(window.tokens.mask[s.start]);
      }
      expect(spans.filter((s) => s.mask === 1).length).toBeGreaterThan(0);
    }
  });

  it("opencode-after-fix 0-0: shading keeps the reply's text, and leaves re-fed turns alone", async () => {
    const model = await open("opencode-after-fix", "0-0");
    const q = { chain: "main", offset: 0, limit: 200, clip: 100_000 };
    const plain = conversationPageSchema.parse(conversationPage(model, q));
    const shaded = conversationPageSchema.parse(conversationPage(model, { ...q, shade: true }));
    const all = (m: ConversationMessage) =>
      m.blocks.map((b) => b.spans.map((s) => s.text).join(""));
    const before = replies(plain.items);
    expect(replies(shaded.items)).toHaveLength(before.length);
    replies(shaded.items).forEach((m, k) => {
      const text = all(m).join("\n");
      expect(text).not.toMatch(/<\|im_(start|end)\|>/);
      expect(text.trim()).not.toBe("");
      // Split from the same tokens, the unshaded reply reads the same, block for block.
      if (before[k]!.source === "tokens") expect(all(m)).toEqual(all(before[k]!));
    });
    // Messages with no generated token are not re-split: the same item as unshaded.
    shaded.items.forEach((item, i) => {
      if (item.kind === "message" && item.generated === 0) expect(item).toEqual(plain.items[i]);
    });
  });
});
