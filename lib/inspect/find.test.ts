// Find within a rollout: expected token ranges come from how the texts were encoded (each piece
// encoded alone, so its tokens' positions are known) and from the planted phrases of the 500-call
// rollout (fixtures/generator/find-planted), never from the matcher.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FIND_PLANTS,
  FIND_QUERY,
  FIND_QUERY_JA,
  plantedMatches,
} from "@/fixtures/generator/find-planted";
import { BIG_ROLLOUT_ID, LARGE_DEFAULTS, writeLargeRollout } from "@/fixtures/generator/large";
import { getRun } from "@/lib/runs/root";
import { o200kDecoder } from "@/lib/tokens";
import { findInModel, matchesIn, type PartAt } from "./find";
import { foldedTextOf } from "./fold-case";
import { rolloutModel } from "./rollout-model";

/** Pieces encoded one by one: the ids, and each piece's tokens [start, end). */
function layout(pieces: string[]) {
  const ids: number[] = [];
  const at = pieces.map((p) => {
    const start = ids.length;
    ids.push(...encode(p));
    return { start, end: ids.length };
  });
  return { ids, at };
}

async function textFor(ids: number[], parts: PartAt[] = [{ start: 0, call: "c", kind: "input" }]) {
  return { ...foldedTextOf(await o200kDecoder(), ids), parts };
}

const range = (m: { start: number; end: number }) => [m.start, m.end];

describe("matchesIn", () => {
  it("matches a phrase split across tokens, case ignored, with its tokens and call", async () => {
    expect(encode("quartz lantern protocol")).toHaveLength(4); // qu | artz | ␠lantern | ␠protocol
    const { ids, at } = layout(["The log says ", "quartz lantern protocol", " and then "]);
    const p = at[1]!;
    const parts: PartAt[] = [
      { start: 0, call: "a", kind: "input" },
      { start: p.start + 2, call: "b", kind: "generated" },
    ];
    const text = await textFor(ids, parts);
    expect(matchesIn(text, "artz lan").matches).toEqual([
      { start: p.start + 1, end: p.start + 3, call: "a", kind: "input" },
    ]);
    expect(matchesIn(text, "QUARTZ Lantern Protocol").matches.map(range)).toEqual([
      [p.start, p.end],
    ]);
    expect(matchesIn(text, "protocol").matches[0]).toMatchObject({ call: "b", kind: "generated" });
    expect(matchesIn(text, "lanterns")).toEqual({ matches: [], total: 0, truncated: false });
    expect(matchesIn(text, "").total).toBe(0);
  });

  it("finds non-English text and a character split over byte-level tokens", async () => {
    // 灯 | 台 | 守 | の | F0 9F | AA | 94 (🪔 is three byte-level pieces)
    expect(encode("灯台守の🪔")).toHaveLength(7);
    const { ids, at } = layout(["見張り: ", "灯台守の🪔", " lamp"]);
    const s = at[1]!.start;
    const text = await textFor(ids);
    expect(matchesIn(text, "守の").matches.map(range)).toEqual([[s + 2, s + 4]]);
    expect(matchesIn(text, "🪔").matches.map(range)).toEqual([[s + 4, s + 7]]);
    expect(matchesIn(text, "の🪔 LAMP").matches.map(range)).toEqual([[s + 3, at[2]!.end]]);
    expect(matchesIn(text, FIND_QUERY_JA).matches.map(range)).toEqual([[s, s + 7]]);
  });

  it("keeps offsets after a character whose lower case is longer (İ) and folds final sigma", async () => {
    const { ids, at } = layout(["İstanbul", " ΟΔΟΣ", " quartz"]);
    const text = await textFor(ids);
    expect(matchesIn(text, "istanbul").matches.map(range)).toEqual([[0, at[0]!.end]]);
    expect(matchesIn(text, "quartz").matches.map(range)).toEqual([[at[2]!.start, at[2]!.end]]);
    expect(matchesIn(text, "οδοσ").total).toBe(1);
  });

  it("reads every character of the query literally", async () => {
    const odd = ` a.*b "quoted" (x) [y] \\d+ $^ | {2} `;
    const { ids, at } = layout(["plain words", odd, "tail"]);
    const text = await textFor(ids);
    for (const q of ['"quoted" (x)', ".*", "\\d+", "$^ |", "[y]", "{2}"])
      expect(matchesIn(text, q).total, q).toBe(1);
    expect(matchesIn(text, odd).matches.map(range)).toEqual([[at[1]!.start, at[1]!.end]]);
    expect(matchesIn(text, "a.b").total).toBe(0); // not "any character"
  });

  it("lists at most the cap, counts the rest", async () => {
    const pieces = Array.from({ length: 25 }, (_, i) => (i % 2 ? " filler\n" : "quartz lantern\n"));
    const { ids, at } = layout(pieces);
    const found = matchesIn(await textFor(ids), "QUARTZ LANTERN", 5);
    expect(found.total).toBe(13);
    expect(found.truncated).toBe(true);
    expect(found.matches.map(range)).toEqual(
      [0, 2, 4, 6, 8].map((i) => [at[i]!.start, at[i]!.end - 1]), // the newline is not matched
    );
  });
});

describe("find on the 500-call, 200k-token rollout", () => {
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-find-"));
    await writeLargeRollout(root, LARGE_DEFAULTS);
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("finds every planted phrase, the last in the last call's generation", async () => {
    const run = await getRun("large-rollout", root);
    const model = await rolloutModel(run, BIG_ROLLOUT_ID);
    const found = await findInModel(model, run, "main", FIND_QUERY);
    const truth = plantedMatches(FIND_QUERY);
    expect(truth).toHaveLength(4);
    expect(found).toMatchObject({ total: 4, truncated: false, unavailable: null });
    expect(found.matches.map(range)).toEqual(truth.map(range));
    const last = model.view.chains[0]!.call_ids.at(-1);
    expect(found.matches.at(-1)).toMatchObject({ call: last, kind: "generated" });
    expect(found.matches[0]).toMatchObject({ call: model.view.calls[0]!.model_call_id });
    // Again, from the decoded text kept for the model; the Japanese plant too.
    const ja = await findInModel(model, run, "main", FIND_QUERY_JA);
    expect(ja.matches.map(range)).toEqual(plantedMatches(FIND_QUERY_JA).map(range));
    expect(FIND_PLANTS).toHaveLength(5);
  }, 60_000);
});
