// Chat messages from a captured exchange's parsed bodies (docs/capture-format.md §9.2): the request's
// messages or input items and the response's assistant output, for the three dialects (Chat
// Completions, Responses, Anthropic Messages), with reasoning and tool calls as blocks. Reads
// plain JSON values defensively; it never throws on a shape it does not know, it skips it.
import type { ConversationBlockKind, ConversationRole } from "@/lib/schema";
import { roleOf } from "./chat-template";

export interface BodyBlock {
  kind: ConversationBlockKind;
  text: string;
  name: string | null;
  tool_call_id: string | null;
}

export interface BodyMessage {
  label: string;
  role: ConversationRole;
  blocks: BodyBlock[];
}

type Json = Record<string, unknown>;

function rec(v: unknown): Json | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null;
}
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asText = (v: unknown): string =>
  typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v);

function block(
  kind: ConversationBlockKind,
  text: string,
  name: string | null = null,
  id: string | null = null,
): BodyBlock {
  return { kind, text, name, tool_call_id: id };
}

/** Content parts of any dialect (text, input_text, output_text, thinking, tool_use, tool_result…). */
function partBlocks(content: unknown, textKind: ConversationBlockKind): BodyBlock[] {
  if (typeof content === "string") return content === "" ? [] : [block(textKind, content)];
  const out: BodyBlock[] = [];
  for (const raw of list(content)) {
    const p = rec(raw);
    if (!p) continue;
    const type = str(p.type) ?? "text";
    const text = str(p.text);
    if (text !== null && (type === "text" || type === "input_text" || type === "output_text"))
      out.push(block(textKind, text));
    else if (type === "thinking") out.push(block("reasoning", asText(p.thinking)));
    else if (type === "reasoning_text" || type === "summary_text")
      out.push(block("reasoning", asText(p.text)));
    else if (type === "tool_use")
      out.push(block("tool_call", asText(p.input), str(p.name), str(p.id)));
    else if (type === "tool_result")
      out.push(
        block(
          "tool_result",
          partBlocks(p.content, "tool_result")
            .map((b) => b.text)
            .join("\n"),
          null,
          str(p.tool_use_id),
        ),
      );
    else if (type !== "redacted_thinking") out.push(block(textKind, `[${type}]`));
  }
  return out;
}

/** A Chat Completions or Anthropic message. */
function chatMessage(raw: unknown): BodyMessage | null {
  const m = rec(raw);
  const label = str(m?.role);
  if (!m || label === null) return null;
  let role = roleOf(label);
  const blocks: BodyBlock[] = [];
  const reasoning = str(m.reasoning_content) ?? str(m.reasoning);
  if (reasoning) blocks.push(block("reasoning", reasoning));
  blocks.push(...partBlocks(m.content, role === "tool" ? "tool_result" : "text"));
  if (role === "tool") for (const b of blocks) b.tool_call_id ??= str(m.tool_call_id);
  for (const raw of list(m.tool_calls)) {
    const c = rec(raw);
    const fn = rec(c?.function);
    if (c && fn) blocks.push(block("tool_call", asText(fn.arguments), str(fn.name), str(c.id)));
  }
  // Anthropic returns tool results inside a user message: it is the tool speaking.
  if (role === "user" && blocks.length > 0 && blocks.every((b) => b.kind === "tool_result"))
    role = "tool";
  return { label, role, blocks };
}

/** Responses API items, consecutive assistant items (reasoning, message, function_call) merged. */
function responsesItems(items: readonly unknown[]): BodyMessage[] {
  const out: BodyMessage[] = [];
  const assistant = (): BodyMessage => {
    const last = out[out.length - 1];
    if (last && last.role === "assistant") return last;
    const m: BodyMessage = { label: "assistant", role: "assistant", blocks: [] };
    out.push(m);
    return m;
  };
  for (const raw of items) {
    const it = rec(raw);
    if (!it) continue;
    const type = str(it.type) ?? "message";
    if (type === "message") {
      const label = str(it.role) ?? "user";
      const role = roleOf(label);
      const blocks = partBlocks(it.content, "text");
      if (role === "assistant") assistant().blocks.push(...blocks);
      else out.push({ label, role, blocks });
    } else if (type === "reasoning") {
      const parts = [...list(it.summary), ...list(it.content)];
      const text = parts
        .map((p) => str(rec(p)?.text) ?? "")
        .filter((t) => t !== "")
        .join("\n");
      if (text) assistant().blocks.push(block("reasoning", text));
    } else if (type === "function_call") {
      assistant().blocks.push(
        block("tool_call", asText(it.arguments), str(it.name), str(it.call_id)),
      );
    } else if (type === "function_call_output") {
      out.push({
        label: "tool",
        role: "tool",
        blocks: [
          block(
            "tool_result",
            partBlocks(it.output, "tool_result")
              .map((b) => b.text)
              .join("\n"),
            null,
            str(it.call_id),
          ),
        ],
      });
    }
  }
  return out;
}

/** Every message a request sent, system prompt first; null when the body holds none. */
export function requestMessages(
  dialect: string | null,
  request: Json | null,
): BodyMessage[] | null {
  if (!request) return null;
  const out: BodyMessage[] = [];
  if (
    dialect === "responses" ||
    (dialect === null && ("input" in request || "instructions" in request))
  ) {
    const instructions = str(request.instructions);
    if (instructions)
      out.push({ label: "system", role: "system", blocks: [block("text", instructions)] });
    const input = request.input;
    if (typeof input === "string")
      out.push({ label: "user", role: "user", blocks: [block("text", input)] });
    else out.push(...responsesItems(list(input)));
  } else {
    const system = partBlocks(request.system, "text");
    if (system.length > 0) out.push({ label: "system", role: "system", blocks: system });
    for (const m of list(request.messages)) {
      const parsed = chatMessage(m);
      if (parsed) out.push(parsed);
    }
  }
  return out.length > 0 ? out : null;
}

/** The assistant turn a response returned; null for an error body or an unknown shape. */
export function responseMessage(dialect: string | null, response: Json | null): BodyMessage | null {
  if (!response) return null;
  const choice = rec(list(response.choices)[0]);
  if (choice) return chatMessage(choice.message);
  if (Array.isArray(response.output)) {
    const assistant = responsesItems(response.output).find((m) => m.role === "assistant");
    return assistant ?? null;
  }
  if ((dialect === "messages" || response.type === "message") && Array.isArray(response.content)) {
    return chatMessage({ role: str(response.role) ?? "assistant", content: response.content });
  }
  return null;
}

/**
 * What a call added to the conversation: everything for the sequence's first call, else the
 * messages after the last assistant turn (the tool results and user turns since the last reply).
 */
export function newInputMessages(all: readonly BodyMessage[], first: boolean): BodyMessage[] {
  if (first) return [...all];
  let last = -1;
  for (let i = all.length - 1; i >= 0 && last < 0; i--) if (all[i]!.role === "assistant") last = i;
  return all.slice(last + 1);
}
