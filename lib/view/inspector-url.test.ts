import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { openRollout, readAll } from "@/lib/testing/inspect-fixture";
import { callView, failedCall } from "@/lib/testing/rollout-view";
import {
  callPosition,
  callTokensPatch,
  callToFind,
  conversationSearch,
  selectCall,
  selectedCallOf,
  sequenceCalls,
  sequenceForCall,
  type SequenceSource,
} from "./inspector-url";

// Rollouts with every shape a call can sit in: two roots (0-0, compaction), a sub-agent branch
// (1-0), side calls before the main chain (12-0), and a one-chain opencode rollout.
const FIXTURES: Array<[run: string, rollout: string]> = [
  ["claude-code-capture-on", "0-0"],
  ["claude-code-capture-on", "1-0"],
  ["claude-code-capture-on", "12-0"],
  ["opencode-after-fix", "0-0"],
];

describe("a call's first token in a sequence", () => {
  it.each(FIXTURES)("%s %s: agrees with the token route's segments", async (run, rollout) => {
    const model = await openRollout(run, rollout);
    const { view } = model;
    const sequences = [
      ...view.chains.map((c) => c.chain_id),
      ...view.calls.map((c) => `call:${c.model_call_id}`),
    ];
    let compared = 0;
    for (const sequence of sequences) {
      // The route's own layout of the sequence: where each call's first segment starts.
      const { segments } = readAll(model, sequence, 5000);
      for (const c of view.calls) {
        const first = segments.find((s) => s.call === c.model_call_id);
        expect(
          callPosition(view, sequence, c.model_call_id),
          `${c.model_call_id} in ${sequence}`,
        ).toBe(first ? first.start : null);
        if (first && first.start > 0) compared++;
      }
    }
    expect(compared, "calls that start after position 0").toBeGreaterThan(0);
  });

  it("opens 'view tokens' at the call's own prompt tail: after everything it inherited", async () => {
    const run = "claude-code-capture-on";
    const { view } = await openRollout(run, "12-0");
    const second = view.chains.find((c) => c.chain_id === "main")?.call_ids[1];
    expect(second).toBeDefined();
    // From the token file: the longest earlier sequence (prompt + generation) its prompt extends.
    const entries = readFileSync(path.join(RUNS_DIR, run, "tokens", "12-0.tokens.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map(
        (l) =>
          JSON.parse(l) as {
            model_call_id: string;
            prompt_token_ids: number[];
            generation_token_ids: number[];
          },
      );
    const own = entries.find((e) => e.model_call_id === second)!;
    const inherited = Math.max(
      ...entries
        .filter((e) => e !== own)
        .map((e) => [...e.prompt_token_ids, ...e.generation_token_ids])
        .filter((seq) => seq.every((t, i) => own.prompt_token_ids[i] === t))
        .map((seq) => seq.length),
    );
    expect(inherited).toBeGreaterThan(0);
    expect(callTokensPatch(view, second!)).toEqual({
      tab: "tokens",
      chain: `call:${second}`,
      call: second,
      pos: String(inherited),
    });
  });
});

// A main chain a → b, a branch chain a → c, a side call s, and a failed call f.
const view: SequenceSource = {
  chains: [
    { chain_id: "main", call_ids: ["a", "b"] },
    { chain_id: "chain-1", call_ids: ["a", "c"] },
  ],
  calls: [
    callView({
      model_call_id: "a",
      chains: ["main", "chain-1"],
      interstitial_len: 10,
      generated_len: 5,
    }),
    callView({ model_call_id: "b", parent_call_id: "a", interstitial_len: 3, generated_len: 4 }),
    callView({
      model_call_id: "c",
      parent_call_id: "a",
      chains: ["chain-1"],
      interstitial_len: 2,
      generated_len: 1,
    }),
    callView({
      model_call_id: "s",
      chains: [],
      role: "side_call",
      interstitial_len: 7,
      generated_len: 1,
    }),
  ],
  failed: [failedCall({ model_call_id: "f" })],
};

describe("the conversation opening at the selected call", () => {
  const find = (qs: string) => callToFind(new URLSearchParams(qs));
  it("looks for the call's item on the conversation tab when no message is selected", () => {
    expect(find("tab=conversation&call=b")).toBe("b");
    expect(find("call=b&chain=main&tab=conversation&shade=1")).toBe("b");
  });

  it("leaves a selected message, another tab or no call alone", () => {
    expect(find("tab=conversation&call=b&message=3")).toBeNull();
    expect(find("tab=conversation&call=b&message=0")).toBeNull();
    expect(find("tab=tokens&call=b")).toBeNull();
    expect(find("call=b")).toBeNull(); // no tab is the token tab
    expect(find("tab=conversation")).toBeNull();
  });

  it("a message that is not an item index does not count as one", () => {
    expect(find("tab=conversation&call=b&message=x")).toBe("b");
  });
});

describe("selecting a call", () => {
  it("lays out chains and calls alone as the routes do", () => {
    expect(sequenceCalls(view, "main")).toEqual(["a", "b"]);
    expect(sequenceCalls(view, "call:c")).toEqual(["a", "c"]);
    expect(sequenceCalls(view, "call:zz")).toBeNull();
    expect(callPosition(view, "main", "b")).toBe(15);
    expect(callPosition(view, "chain-1", "c")).toBe(15);
    expect(callPosition(view, "call:b", "a")).toBe(0);
    expect(callPosition(view, "main", "c")).toBeNull();
  });

  it("finds the sequence that holds a call, keeping the current one when it does", () => {
    expect(sequenceForCall(view, "chain-1", "a")).toBe("chain-1");
    expect(sequenceForCall(view, "call:b", "a")).toBe("call:b"); // an ancestor, inherited there
    expect(sequenceForCall(view, "main", "c")).toBe("chain-1");
    expect(sequenceForCall(view, "main", "s")).toBe("call:s");
    expect(sequenceForCall(view, "main", "f")).toBeNull();
  });

  it("keeps the token tab and moves it to the call; no token entry opens the detail", () => {
    expect(selectCall(view, "tokens", "main", "b")).toEqual({
      patch: { call: "b", pos: null, message: null },
      search: [],
    });
    expect(selectCall(view, "tokens", "main", "c").patch).toEqual({
      call: "c",
      pos: null,
      message: null,
      chain: "chain-1",
    });
    expect(selectCall(view, "tokens", "main", "s").patch.chain).toBe("call:s");
    expect(selectCall(view, "tokens", "main", "f").patch).toEqual({
      call: "f",
      pos: null,
      message: null,
      tab: "call",
    });
  });

  it("keeps the conversation tab and searches the current sequence first", () => {
    expect(selectCall(view, "conversation", "main", "b")).toEqual({
      patch: { call: "b", pos: null, message: null },
      search: ["main"],
    });
    // A side call is an item of the chain where it happened, else its own conversation.
    expect(selectCall(view, "conversation", "main", "s").search).toEqual(["main", "call:s"]);
    expect(selectCall(view, "conversation", "main", "f")).toEqual({
      patch: { call: "f", pos: null, message: null },
      search: ["main"],
    });
    expect(selectCall(view, "conversation", "main", "intent-1").patch.tab).toBe("call");
    expect(conversationSearch(view, "main", "intent-1")).toEqual([]);
    expect(conversationSearch(view, "chain-1", "c")).toEqual(["chain-1"]);
    expect(conversationSearch(view, "main", "c")).toEqual(["main", "chain-1"]);
  });

  it("only selects on the detail and chain tabs, dropping the previous call's token and message", () => {
    const drop = { pos: null, message: null };
    expect(selectCall(view, "call", "main", "c")).toEqual({
      patch: { call: "c", ...drop },
      search: [],
    });
    expect(selectCall(view, "chains", "main", "s")).toEqual({
      patch: { call: "s", ...drop },
      search: [],
    });
  });
});

describe("the call URL parameter", () => {
  // Timeline order, by hand: the 422 came after "a", so it is call 2 and "b" call 3.
  const view = {
    calls: [callView({ model_call_id: "a" }), callView({ model_call_id: "b" })],
    failed: [failedCall({ model_call_id: "f", after_call: "a" })],
    dangling_intents: [{ model_call_id: "i" }],
  };

  it("takes a number as the call the timeline (and the banner) numbers so", () => {
    expect(selectedCallOf(view, "1")).toBe("a");
    expect(selectedCallOf(view, "2")).toBe("f");
    expect(selectedCallOf(view, "3")).toBe("b");
  });

  it("keeps ids (hash ids, a failed call's, an intent's) and passes unknown ones through", () => {
    expect(selectedCallOf(view, "b")).toBe("b");
    expect(selectedCallOf(view, "i")).toBe("i");
    expect(selectedCallOf(view, "4")).toBe("4");
    expect(selectedCallOf(view, "0")).toBe("0");
    expect(selectedCallOf(view, "nope")).toBe("nope");
    expect(selectedCallOf(view, null)).toBeNull();
    expect(selectedCallOf(view, "")).toBeNull();
  });

  it("prefers an id over a number when a call's id is all digits", () => {
    const digits = { ...view, calls: [...view.calls, callView({ model_call_id: "1" })] };
    expect(selectedCallOf(digits, "1")).toBe("1");
  });
});
