import { describe, expect, it } from "vitest";
import type { ConversationMessage } from "@/lib/schema/api-conversation";
import { call, msg, sequence, tx } from "@/lib/testing/conversation-tokens";
import { buildConversation } from "./build";
import { pageConversation, probabilityBin } from "./page";

describe("paging", () => {
  it("pages over items and clips block text, never splitting a surrogate pair", () => {
    const long = "🚀".repeat(3000);
    const seq = sequence([
      { call: 0, kind: "prompt", toks: [...msg("user", long)] },
      { call: 0, kind: "generated", toks: tx("ok") },
    ]);
    const conv = buildConversation({ ...seq, calls: [call("c0", 1)], events: [] });
    const [first] = pageConversation(conv, 0, 1, 101);
    const block = (first as ConversationMessage).blocks[0]!;
    expect(block).toMatchObject({ chars: 6000, truncated: true });
    expect(block.spans[0]!.text).toBe("🚀".repeat(50));
    expect(pageConversation(conv, 1, 5, 2000).map((i) => i.index)).toEqual([1]);
    expect((conv.items[0] as ConversationMessage).blocks[0]!.truncated).toBe(false);
  });
});

describe("probability bins", () => {
  it("bins log probs by probability, most probable first", () => {
    expect(
      [
        0,
        Math.log(0.95),
        Math.log(0.6),
        Math.log(0.2),
        Math.log(0.05),
        Math.log(0.001),
        -Infinity,
        null,
      ].map(probabilityBin),
    ).toEqual([0, 0, 2, 4, 5, 5, 5, -1]); // the token view's bands: 0.9, 0.7, 0.5, 0.3, 0.1, 0
  });
});
