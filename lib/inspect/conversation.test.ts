import { readFileSync } from "node:fs";
import path from "node:path";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { CODING_SYSTEM, CODING_TASKS, TITLE_SYSTEM } from "@/fixtures/generator/content";
import { IM_END, IM_START } from "@/fixtures/generator/conversation";
import { PAYLOADS } from "@/fixtures/generator/hostile-text";
import { InvalidInputError, UnknownCallError, UnknownChainError } from "@/lib/errors";
import { getRun } from "@/lib/runs/root";
import { callView } from "@/lib/testing/rollout-view";
import {
  conversationPageSchema,
  type ConversationItem,
  type ConversationMessage,
} from "@/lib/schema/api-conversation";
import { conversationPage, parseConversationQuery } from "./conversation";
import { inspectRollout } from "./rollout-model";

const open = async (run: string, rollout: string) =>
  inspectRollout(await getRun(run, RUNS_DIR), rollout);
const page = async (
  run: string,
  rollout: string,
  q: Partial<{ chain: string; offset: number; limit: number; clip: number }> = {},
) =>
  conversationPageSchema.parse(
    conversationPage(await open(run, rollout), {
      chain: "main",
      offset: 0,
      limit: 200,
      clip: 100_000,
      ...q,
    }),
  );
const messages = (items: ConversationItem[]) =>
  items.filter((i): i is ConversationMessage => i.kind === "message");
const blockText = (m: ConversationMessage, kind: string) =>
  m.blocks.filter((b) => b.kind === kind).map((b) => b.spans.map((s) => s.text).join(""));

/** The token file's entries, read without the app's readers. */
function entries(
  run: string,
  rollout: string,
): Array<{ model_call_id: string; requested_model: string; generation_token_ids: number[] }> {
  const file = path.join(RUNS_DIR, run, "tokens", `${rollout}.tokens.jsonl`);
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

describe("conversation of the claude-code clean rollout (10-0, task 0)", () => {
  const task = CODING_TASKS[0]!;

  it("reads as the generator wrote it: system, user, side calls, then assistant and tool turns", async () => {
    const p = await page("claude-code-capture-on", "10-0");
    expect(p).toMatchObject({ template: "chatml", decoded: true, sequence: "main" });
    const ms = messages(p.items);
    expect(ms[0]!.role).toBe("system");
    expect(blockText(ms[0]!, "text")[0]!.startsWith(CODING_SYSTEM)).toBe(true);
    expect(ms[1]!.role).toBe("user");
    expect(blockText(ms[1]!, "text")).toEqual([task.prompt]);
    // The quota probe and the title call happened before the first reply.
    expect(p.items.slice(2, 4).map((i) => i.kind)).toEqual(["side_call", "side_call"]);
    expect(p.items[3]).toMatchObject({
      kind: "side_call",
      preview: task.title,
      model: "claude-haiku-4-5",
    });
    const turns = ms.slice(2);
    expect(turns.map((m) => m.role)).toEqual([
      ...task.steps.flatMap(() => ["assistant", "tool"]),
      "assistant",
    ]);
    task.steps.forEach((step, k) => {
      const reply = turns[2 * k]!;
      expect(blockText(reply, "reasoning")).toEqual(
        step.turn.reasoning ? [step.turn.reasoning] : [],
      );
      expect(reply.blocks.filter((b) => b.kind === "tool_call").map((b) => b.name)).toEqual(
        step.turn.toolCalls!.map((c) => c.name),
      );
      expect(blockText(turns[2 * k + 1]!, "tool_result")).toEqual([step.output]);
    });
    expect(blockText(turns[turns.length - 1]!, "text")).toEqual([task.final.text]);
  });

  it("each reply's generated count is its call's generation, and the mask totals add up", async () => {
    const p = await page("claude-code-capture-on", "10-0");
    const policy = entries("claude-code-capture-on", "10-0").filter(
      (e) => e.requested_model === "claude-opus-4-1",
    );
    const replies = messages(p.items).filter((m) => m.role === "assistant");
    expect(replies.map((m) => [m.call, m.generated])).toEqual(
      policy.map((e) => [e.model_call_id, e.generation_token_ids.length]),
    );
    expect(p.generated).toBe(policy.reduce((n, e) => n + e.generation_token_ids.length, 0));
    for (const m of messages(p.items)) {
      for (const s of m.blocks.flatMap((b) => b.spans))
        expect(s.mask).toBe(m.role === "assistant" ? 1 : 0);
    }
  });

  it("a side call's thread is its own sequence: the title prompt and the title", async () => {
    const main = await page("claude-code-capture-on", "10-0");
    const title = main.items[3]!;
    if (title.kind !== "side_call") throw new Error("expected the title side call");
    const p = await page("claude-code-capture-on", "10-0", { chain: title.sequence });
    const ms = messages(p.items);
    expect(ms.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    expect(blockText(ms[0]!, "text")).toEqual([TITLE_SYSTEM]);
    expect(blockText(ms[1]!, "text")).toEqual([task.prompt]);
    expect(blockText(ms[2]!, "text")).toEqual([task.title]);
    expect(ms[2]!.generated).toBe(title.generated_len);
    expect(p.items.every((i) => i.kind === "message")).toBe(true);
  });

  it("pages over items and clips long blocks", async () => {
    const all = await page("claude-code-capture-on", "10-0");
    const a = await page("claude-code-capture-on", "10-0", { limit: 5, clip: 40 });
    const b = await page("claude-code-capture-on", "10-0", { offset: 5, limit: 200, clip: 40 });
    expect(a.total).toBe(all.total);
    expect([...a.items, ...b.items].map((i) => i.index)).toEqual(all.items.map((i) => i.index));
    const sys = a.items[0] as ConversationMessage;
    expect(sys.blocks[0]).toMatchObject({
      truncated: true,
      chars: (all.items[0] as ConversationMessage).blocks[0]!.chars,
    });
    expect(sys.blocks[0]!.spans.map((s) => s.text).join("")).toBe(CODING_SYSTEM.slice(0, 40));
  });
});

describe("conversation edge cases on the sample runs", () => {
  it("the seed-000 422 sits after the only reply, with its error", async () => {
    const p = await page("opencode-before-fix", "0-0");
    const last = p.items[p.items.length - 1]!;
    expect(last).toMatchObject({ kind: "failed_call", status_code: 422 });
    expect(last.kind === "failed_call" && last.error).toMatch(/extra_forbidden/);
    expect(p.items[p.items.length - 2]).toMatchObject({ kind: "message", role: "assistant" });
  });

  it("hostile text arrives as the characters the model wrote", async () => {
    const text = messages((await page("hostile-text", "0-0")).items)
      .flatMap((m) => m.blocks.flatMap((b) => b.spans.map((s) => s.text)))
      .join("\n");
    for (const payload of Object.values(PAYLOADS)) expect(text).toContain(payload);
  });

  it("unknown chains and calls are named; bad parameters are refused", async () => {
    const model = await open("claude-code-capture-on", "10-0");
    const q = { offset: 0, limit: 10, clip: 100 };
    expect(() => conversationPage(model, { ...q, chain: "branch-9" })).toThrow(UnknownChainError);
    expect(() => conversationPage(model, { ...q, chain: "call:nope" })).toThrow(UnknownCallError);
    expect(
      parseConversationQuery(new URLSearchParams("chain=main&offset=5&limit=7&profile=seed")),
    ).toEqual({ chain: "main", offset: 5, limit: 7, clip: 2000 });
    expect(parseConversationQuery(new URLSearchParams(""))).toEqual({
      chain: "main",
      offset: 0,
      limit: 50,
      clip: 2000,
    });
    for (const bad of ["limit=0", "limit=201", "offset=-1", "offset=x", "clip=0"]) {
      expect(() => parseConversationQuery(new URLSearchParams(bad))).toThrow(InvalidInputError);
    }
  });
});

describe("a 200k-token, 500-call chain decoded with o200k_base", () => {
  it("builds once, then pages without rebuilding", async () => {
    const base = await open("claude-code-capture-on", "10-0");
    const tool = encode(
      "<tool_response>\n" +
        "line of tool output, with words and numbers 12345\n".repeat(28) +
        "</tool_response>",
    );
    const own = Int32Array.from([
      ...encode("\n"),
      IM_START,
      ...encode("tool\n"),
      ...tool,
      IM_END,
      ...encode("\n"),
      IM_START,
      ...encode("assistant\n"),
    ]);
    const gen = Int32Array.from([
      ...encode(
        "<think>\n" + "reasoning about the next step ".repeat(15) + "\n</think>\nRunning it.",
      ),
      IM_END,
    ]);
    const calls = 500;
    const tokens = Array.from({ length: calls }, (_, i) => ({
      parent: i - 1,
      inherited: 0,
      own,
      gen,
      logProbs: new Float64Array(gen.length).fill(-0.2),
      routes: null,
      exact: { own: [], gen: [] },
    }));
    const view = {
      ...base.view,
      calls: tokens.map((_, i) => callView({ model_call_id: `c${i}`, created_at: i })),
      failed: [],
    };
    const model = {
      ...base,
      view,
      tokens,
      chainCalls: new Map([["main", tokens.map((_, i) => i)]]),
      callIndex: new Map(view.calls.map((c, i) => [c.model_call_id, i])),
    };
    const length = calls * (own.length + gen.length);
    expect(length).toBeGreaterThan(200_000);

    const t0 = performance.now();
    const first = conversationPage(model, { chain: "main", offset: 0, limit: 50, clip: 2000 });
    const built = performance.now() - t0;
    const t1 = performance.now();
    const last = conversationPage(model, { chain: "main", offset: 950, limit: 50, clip: 2000 });
    const paged = performance.now() - t1;
    expect(first).toMatchObject({ total: 2 * calls, length, generated: calls * gen.length });
    expect(last.items[last.items.length - 1]).toMatchObject({
      kind: "message",
      role: "assistant",
      end: length,
      generated: gen.length,
    });
    expect(built).toBeLessThan(1000);
    expect(paged).toBeLessThan(50);
  });
});
