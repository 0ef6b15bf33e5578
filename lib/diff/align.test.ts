// The pure aligner on hand-made sequences whose answers are written out here, and on the GRPO
// pair of the sample runs, whose first divergence is the generator's truth
// (fixtures/generator/diff-pairs): its token files are read with JSON.parse, not the inspector.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { GROUP_PAIR } from "@/fixtures/generator/diff-pairs";
import {
  alignMessages,
  diffTokens,
  firstDivergence,
  MAX_TOKEN_DIFF_LENGTH,
  MAX_TOKEN_EDITS,
  spanKeys,
} from "./align";

/** A sequence from messages given as id lists: its ids and each message's span. */
function seq(...messages: number[][]) {
  const ids: number[] = [];
  const spans = messages.map((m) => {
    const start = ids.length;
    ids.push(...m);
    return { start, end: ids.length };
  });
  return { ids: Int32Array.from(ids), keys: spanKeys(Int32Array.from(ids), spans) };
}

describe("firstDivergence", () => {
  it("is null for identical ids, the first differing position otherwise", () => {
    expect(firstDivergence([1, 2, 3], [1, 2, 3])).toBeNull();
    expect(firstDivergence([1, 2, 3], [1, 9, 3])).toBe(1);
    expect(firstDivergence([], [])).toBeNull();
  });
  it("is the shorter one's length when one is a prefix of the other", () => {
    expect(firstDivergence([1, 2], [1, 2, 3, 4])).toBe(2);
    expect(firstDivergence([1, 2, 3, 4], [1, 2])).toBe(2);
    expect(firstDivergence([], [7])).toBe(0);
  });
  it("finds the GRPO pair's truth in the sample run's token files", () => {
    const chain = (id: string) => {
      const lines = readFileSync(
        path.join(RUNS_DIR, GROUP_PAIR.run, "tokens", `${id}.tokens.jsonl`),
        "utf8",
      )
        .split("\n")
        .filter(Boolean);
      const last = JSON.parse(lines[lines.length - 1] as string) as {
        prompt_token_ids: number[];
        generation_token_ids: number[];
      };
      return [...last.prompt_token_ids, ...last.generation_token_ids];
    };
    expect(firstDivergence(chain(GROUP_PAIR.a), chain(GROUP_PAIR.b))).toBe(
      GROUP_PAIR.firstDivergence,
    );
  });
});

describe("alignMessages", () => {
  const kinds = (r: ReturnType<typeof alignMessages>) => r.rows.map((x) => [x.kind, x.a, x.b]);

  it("equal messages are the same, pair for pair", () => {
    const a = seq([1, 2], [3], [4, 5]);
    const r = alignMessages(a.keys, a.keys);
    expect(r.aligned).toBe(true);
    expect(kinds(r)).toEqual([
      ["same", 0, 0],
      ["same", 1, 1],
      ["same", 2, 2],
    ]);
  });

  it("a message that differs between equal ones is changed", () => {
    const a = seq([1, 2], [3, 4], [5]);
    const b = seq([1, 2], [3, 9], [5]);
    expect(kinds(alignMessages(a.keys, b.keys))).toEqual([
      ["same", 0, 0],
      ["changed", 1, 1],
      ["same", 2, 2],
    ]);
  });

  it("a message only in a, and one only in b, keep the rest aligned", () => {
    const a = seq([1], [2, 2], [3], [4]);
    const b = seq([1], [3], [4], [6, 6]);
    expect(kinds(alignMessages(a.keys, b.keys))).toEqual([
      ["same", 0, 0],
      ["only_a", 1, null],
      ["same", 2, 1],
      ["same", 3, 2],
      ["only_b", null, 3],
    ]);
  });

  it("two removed beside one added pair once, the other is only in a", () => {
    const a = seq([1], [7], [8], [2]);
    const b = seq([1], [9], [2]);
    expect(kinds(alignMessages(a.keys, b.keys))).toEqual([
      ["same", 0, 0],
      ["changed", 1, 1],
      ["only_a", 2, null],
      ["same", 3, 2],
    ]);
  });

  it("keys tell the same ids at another position apart from other ids of that length", () => {
    const ids = Int32Array.from([5, 6, 5, 6, 6, 5]);
    const [x, y, z] = spanKeys(ids, [
      { start: 0, end: 2 },
      { start: 2, end: 4 },
      { start: 4, end: 6 },
    ]);
    expect(x).toBe(y);
    expect(x).not.toBe(z);
  });
});

describe("diffTokens", () => {
  it("marks the inserted and the replaced tokens inside a changed message", () => {
    const d = diffTokens([1, 2, 3, 4, 5], [1, 2, 9, 9, 3, 4, 6]);
    expect(d.ops).toEqual([
      { kind: "same", a: 0, b: 0, length: 2 },
      { kind: "added", a: 2, b: 2, length: 2 },
      { kind: "same", a: 2, b: 4, length: 2 },
      { kind: "removed", a: 4, b: 6, length: 1 },
      { kind: "added", a: 5, b: 6, length: 1 },
    ]);
  });

  it("an identical pair is one same run", () => {
    expect(diffTokens([1, 2, 3], [1, 2, 3]).ops).toEqual([{ kind: "same", a: 0, b: 0, length: 3 }]);
  });

  it("gives up on a pair too long or too different, with a note", () => {
    const long = new Int32Array(MAX_TOKEN_DIFF_LENGTH + 1);
    expect(diffTokens(long, [1])).toEqual({ ops: null, note: "too_long" });
    const n = MAX_TOKEN_EDITS * 2;
    const a = Array.from({ length: n }, (_, i) => i);
    const b = Array.from({ length: n }, (_, i) => i + n);
    expect(diffTokens(a, b)).toEqual({ ops: null, note: "too_different" });
  });
});
