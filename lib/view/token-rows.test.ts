import { describe, expect, it } from "vitest";
import type { TokenSegment } from "@/lib/schema/api-tokens";
import type { SeverityState } from "@/lib/severity";
import { sequenceTraining } from "./sequence-training";
import {
  callAt,
  callStart,
  headOfText,
  infoTokens,
  itemOfCall,
  itemOfPosition,
  jumpValue,
  LINE_CAP,
  moveCursor,
  moveLine,
  noChainWords,
  segmentLabel,
  tailOfText,
  tokenItems,
  visibleText,
  type TokenItem,
} from "./token-rows";

// Two segments over 13 tokens, windows of 4: [0,4) [4,8) [8,12) [12,13).
const segments: TokenSegment[] = [
  { call: "a", kind: "prompt", start: 0, length: 6 },
  { call: "b", kind: "generated", start: 6, length: 7 },
];
const texts = [
  "<|im_start|>",
  "user",
  "\n",
  "Hi",
  " there",
  "\n   ",
  "def",
  " f",
  "():\n",
  "\n\n  ",
  "x",
  "=",
  "1",
];
const WINDOW = 4;
const loadedOnly = (windows: number[]) => (p: number) =>
  windows.includes(Math.floor(p / WINDOW)) ? texts[p] : undefined;
const all = loadedOnly([0, 1, 2, 3]);

// Compact form: H<seg>, L[start,end) with c (cut), l (lead), w (wrapped), P[start,end).
const show = (items: TokenItem[]) =>
  items.map((r) => {
    if (r.kind === "header") return `H${r.segment}`;
    if (r.kind === "placeholder") return `P${r.start}-${r.end}`;
    return `L${r.start}-${r.end}${r.cut ? "c" : ""}${r.lead ? "l" : ""}${r.wrapped ? "w" : ""}`;
  });

describe("token lines", () => {
  it("breaks lines after newline tokens and moves a newline's tail to the next line", () => {
    const items = tokenItems({ segments, windowSize: WINDOW, textAt: all });
    // "\n   " (5) ends its segment, so it is not cut; "\n\n  " (9) is, and "  " leads line 10-13.
    expect(show(items)).toEqual(["H0", "L0-3", "L3-6", "H1", "L6-9", "L9-10c", "L10-13l"]);
  });

  it("caps a line at a number of tokens and marks the continuations", () => {
    const items = tokenItems({ segments, windowSize: WINDOW, textAt: all, cap: 2 });
    expect(show(items)).toEqual([
      "H0",
      "L0-2",
      "L2-3w",
      "L3-5",
      "L5-6w",
      "H1",
      "L6-8",
      "L8-9w",
      "L9-10c",
      "L10-12l",
      "L12-13w",
    ]);
  });

  it("bounds a 10,000-token text with no newline at LINE_CAP tokens a line", () => {
    const long = [{ call: "a", kind: "generated" as const, start: 0, length: 10_000 }];
    const items = tokenItems({ segments: long, windowSize: 2000, textAt: () => "ab" });
    const lines = items.filter((r) => r.kind === "line");
    expect(LINE_CAP).toBe(256);
    expect(lines).toHaveLength(40); // 39 × 256 = 9,984, then 16
    expect(lines.every((r) => r.end - r.start <= 256)).toBe(true);
    expect(lines[39]).toMatchObject({ start: 9984, end: 10_000, wrapped: true });
    expect(lines[1]).toMatchObject({ start: 256, end: 512, wrapped: true });
  });

  it("splits only at the cap when the sequence is not decoded", () => {
    const items = tokenItems({ segments, windowSize: WINDOW, textAt: () => null, cap: 4 });
    expect(show(items)).toEqual(["H0", "L0-4", "L4-6w", "H1", "L6-10", "L10-13w"]);
  });

  it("shows unloaded windows as placeholders clipped to the segment, and joins loaded windows", () => {
    const items = tokenItems({ segments, windowSize: WINDOW, textAt: loadedOnly([0, 2, 3]) });
    // Window 1 [4,8) is missing: one placeholder per segment part; windows 2 and 3 form one run.
    expect(show(items)).toEqual([
      "H0",
      "L0-3",
      "L3-4",
      "P4-6",
      "H1",
      "P6-8",
      "L8-9",
      "L9-10c",
      "L10-13l",
    ]);
    // Once window 1 arrives, the line 3-4 and the placeholder join into the line 3-6.
    expect(show(tokenItems({ segments, windowSize: WINDOW, textAt: all }))).toContain("L3-6");
    const none = tokenItems({ segments, windowSize: WINDOW, textAt: () => undefined });
    expect(show(none)).toEqual(["H0", "P0-4", "P4-6", "H1", "P6-8", "P8-12", "P12-13"]);
  });

  it("finds the item of a position, of a call, and skips empty segments", () => {
    const items = tokenItems({ segments, windowSize: WINDOW, textAt: all });
    const expected: Record<number, number> = {
      0: 1,
      2: 1,
      3: 2,
      5: 2,
      6: 4,
      8: 4,
      9: 5,
      10: 6,
      12: 6,
    };
    for (const [pos, index] of Object.entries(expected))
      expect(itemOfPosition(items, Number(pos))).toBe(index);
    expect(itemOfPosition(items, 13)).toBe(-1);
    expect(itemOfPosition(items, -1)).toBe(-1);
    expect(itemOfCall(items, segments, "b")).toBe(3);
    expect(itemOfCall(items, segments, "zzz")).toBe(-1);
    const withEmpty = [
      segments[0]!,
      { call: "e", kind: "interstitial" as const, start: 6, length: 0 },
      segments[1]!,
    ];
    const items2 = tokenItems({ segments: withEmpty, windowSize: WINDOW, textAt: all });
    expect(show(items2)).toEqual(["H0", "L0-3", "L3-6", "H1", "H2", "L6-9", "L9-10c", "L10-13l"]);
    expect(itemOfPosition(items2, 6)).toBe(5);
    expect(itemOfPosition(items2, 5)).toBe(2);
  });

  it("moves a line up or down at the same index, across headers and into placeholders", () => {
    const items = tokenItems({ segments, windowSize: WINDOW, textAt: all });
    expect(moveLine(items, 4, 1)).toBe(7); // index 1 of 3-6 -> index 1 of 6-9, past the header
    expect(moveLine(items, 2, 1)).toBe(5);
    expect(moveLine(items, 8, 1)).toBe(9); // clamped to the one-token line 9-10
    expect(moveLine(items, 9, -1)).toBe(6);
    expect(moveLine(items, 1, -1)).toBe(1); // first line: stays
    expect(moveLine(items, 12, 1)).toBe(12); // last line: stays
    const gaps = tokenItems({ segments, windowSize: WINDOW, textAt: loadedOnly([0, 2, 3]) });
    expect(moveLine(gaps, 3, 1)).toBe(4); // into placeholder 4-6 at its start
    expect(moveLine(gaps, 8, -1)).toBe(7); // into placeholder 6-8 at its end
  });

  it("maps arrow keys to a cursor move and starts at 0", () => {
    const items = tokenItems({ segments, windowSize: WINDOW, textAt: all });
    expect(moveCursor(items, null, "ArrowDown")).toBe(0);
    expect(moveCursor(items, 4, "ArrowRight")).toBe(5);
    expect(moveCursor(items, 4, "ArrowLeft")).toBe(3);
    expect(moveCursor(items, 4, "ArrowDown")).toBe(7);
    expect(moveCursor(items, 7, "ArrowUp")).toBe(4);
    expect(moveCursor(items, 4, "Enter")).toBeNull();
    expect(moveCursor(items, null, "a")).toBeNull();
  });

  it("starts the cursor where the view was opened (a call's first token), not at 0", () => {
    const items = tokenItems({ segments, windowSize: WINDOW, textAt: all });
    // Segment "b" opens at 6 (fixture above); a view opened at call b starts its cursor there.
    const opened = callStart(segments, "b");
    expect(opened).toBe(6);
    expect(moveCursor(items, null, "ArrowRight", opened ?? 0)).toBe(6);
    expect(moveCursor(items, null, "ArrowDown", 6)).toBe(6);
    expect(moveCursor(items, 6, "ArrowRight", 0)).toBe(7); // a cursor in place ignores the start
    expect(callStart(segments, "a")).toBe(0);
    expect(callStart(segments, "zzz")).toBeNull();
  });

  it("finds the call a selected token belongs to", () => {
    // Fixture above: call a holds [0, 6), call b [6, 13); the last token is 12.
    expect(callAt(segments, 0)).toBe("a");
    expect(callAt(segments, 5)).toBe("a");
    expect(callAt(segments, 6)).toBe("b");
    expect(callAt(segments, 12)).toBe("b");
    expect(callAt(segments, 13)).toBeNull();
    expect(callAt(segments, -1)).toBeNull();
    expect(callAt([], 0)).toBeNull();
  });

  it("shows the selected call in the jump select only when the sequence has its tokens", () => {
    expect(jumpValue(segments, "b")).toBe("b");
    expect(jumpValue(segments, "a")).toBe("a");
    expect(jumpValue(segments, "zzz")).toBe("");
    expect(jumpValue(segments, null)).toBe("");
    expect(jumpValue([], "a")).toBe("");
  });

  it("keeps the selected token in the info line while another is hovered", () => {
    expect(infoTokens(600, 12)).toEqual({ main: 600, hover: 12 });
    expect(infoTokens(600, 600)).toEqual({ main: 600, hover: null });
    expect(infoTokens(600, null)).toEqual({ main: 600, hover: null });
    expect(infoTokens(null, 12)).toEqual({ main: 12, hover: null });
    expect(infoTokens(0, 5)).toEqual({ main: 0, hover: 5 }); // position 0 is a selection too
  });
});

describe("token text and segment words", () => {
  it("shows whitespace and splits a token at its last newline", () => {
    expect(visibleText(" a\n\tb\u0001")).toBe("·a↵⇥b\\x01");
    expect(headOfText("\n\n  ")).toBe("\n\n");
    expect(tailOfText("\n\n  ")).toBe("  ");
    expect(headOfText("a\nb")).toBe("a\n");
    expect(tailOfText("abc")).toBe("abc");
  });

  it("words a segment header by the sequence's training, never trained inside a masked or pending one", () => {
    const calls = new Map([
      ["d", { role: "quarantined", quarantine: "retry_dropped", retry: "dropped" } as const],
    ]);
    const t = (sev: SeverityState, seq = "main") => sequenceTraining(sev, seq, calls);
    expect(segmentLabel("generated", t("trained"))).toBe("generated (mask 1, trained)");
    expect(segmentLabel("generated", t("trained_with_warnings"))).toBe(
      "generated (mask 1, trained with warnings)",
    );
    expect(segmentLabel("generated", t("trained_with_warnings", "call:d"))).toBe(
      "generated (mask 1, not trained (retry dropped))",
    );
    expect(segmentLabel("generated", t("masked"))).toBe(
      "generated (mask 1, excluded: rollout masked)",
    );
    expect(segmentLabel("generated", t("pending"))).toBe("generated (mask 1)");
    expect(segmentLabel("prompt", t("masked"))).toBe("prompt (re-fed, mask 0)");
    expect(segmentLabel("inherited", t("trained"))).toBe("inherited prefix (input, mask 0)");
    expect(segmentLabel("interstitial", t("trained"))).toBe(
      "new input: tool results, turns (re-fed, mask 0)",
    );
    for (const kind of ["inherited", "prompt", "interstitial", "generated"] as const) {
      for (const v of ["masked", "pending"] as const) {
        expect(segmentLabel(kind, t(v))).not.toMatch(/trained/);
      }
    }
  });
});

describe("a rollout with no chain", () => {
  const sideCalls = {
    severity: "masked",
    sentence: "Only side calls: every captured call was a side call.",
  };
  const warning = { severity: "trained_with_warnings", sentence: "Torn tail: …." };
  const facts = { captured: 2, tokenFile: true, error: "all captured calls were side calls" };

  it("says there is no chain, how many calls there were, and the mask reasons as sentences", () => {
    const words = noChainWords([sideCalls, warning], facts);
    expect(words.title).toBe(
      "No chain to show: the builder made no chain from the 2 captured calls.",
    );
    expect(words.why).toEqual([sideCalls.sentence]); // warnings are not why there is no chain
  });

  it("says what the store holds when no mask reason does: an empty file, no file", () => {
    const empty = noChainWords([], { captured: 0, tokenFile: true, error: null });
    expect(empty.title).toBe(
      "No chain to show: this rollout has no captured call with a token entry.",
    );
    expect(empty.why).toEqual([
      "The token file holds no entry: no model call of this rollout was captured.",
    ]);
    expect(noChainWords([], { captured: 0, tokenFile: false, error: null }).why).toEqual([
      "There is no token file for this rollout: its model calls were not captured.",
    ]);
  });

  it("falls back to the builder's error, then to no reason", () => {
    const one = { captured: 1, tokenFile: true, error: "boom" };
    expect(noChainWords([], one).title).toContain("from the 1 captured call.");
    expect(noChainWords([warning], one).why).toEqual(["The builder said: `boom`."]);
    expect(noChainWords([], { ...one, error: null }).why).toEqual(["The verdict gives no reason."]);
  });
});
