// A rollout's ledger and splice facts on hand-built calls whose fate the test states: the parts
// always sum to what was captured, each lost call lands in its named part, and the splice check
// tells a re-rendered turn (drift) from a compaction.
import { describe, expect, it } from "vitest";
import { entry, snapshotOf } from "@/lib/testing/snapshot";
import { decideVerdict } from "./verdict";
import { rolloutLedger } from "./ledger";
import { spliceFactsOf } from "./prefix-breaks";

const seq = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
const call = (id: string, prompt: number[], gen: number[], requested_model = "policy") =>
  entry({
    model_call_id: id,
    prompt_token_ids: prompt,
    generation_token_ids: gen,
    requested_model,
  });

function verdictOf(entries: ReturnType<typeof call>[]) {
  return decideVerdict(snapshotOf(entries), { profile: "seed", sideCallPatterns: ["judge"] });
}

function ledgerOf(entries: ReturnType<typeof call>[], masked = false) {
  const v = verdictOf(entries);
  const side = new Set(v.side_calls.map((s) => s.model_call_id));
  const kept = entries
    .filter((e) => !side.has(e.model_call_id))
    .reduce((a, e) => a + e.generation_token_ids.length, 0);
  return rolloutLedger(v.build, v.side_calls, kept, masked || v.mask_sample);
}

const p0 = seq(100, 20);
const g1 = seq(200, 30);
const c1 = call("a1", p0, g1);
const p2 = [...p0, ...g1, ...seq(300, 5)];
const c2 = call("a2", p2, seq(400, 25));

describe("rolloutLedger", () => {
  it("a clean chain delivers everything it captured", () => {
    expect(ledgerOf([c1, c2])).toEqual({
      ...{ captured: 55, side_calls: 0, retries_dropped: 0, quarantined: 0 },
      ...{ branches: 0, masked: 0, delivered: 55 },
    });
  });

  it("names side calls, dropped retries and branches", () => {
    const side = call("s1", seq(900, 10), seq(950, 7), "judge-model");
    const retry = call("a3", p2, seq(500, 4)); // a2's retry: nothing extends it
    const child = call("a4", [...p2, ...c2.generation_token_ids, 1, 2], seq(600, 6));
    const branch = call("b1", [...p0, ...g1, 9, 9], seq(700, 3));
    const l = ledgerOf([c1, c2, side, retry, child, branch]);
    expect(l).toMatchObject({ side_calls: 7, retries_dropped: 4, branches: 3, delivered: 61 });
    expect(l.captured).toBe(75);
  });

  it("a quarantined call's tokens are quarantine; a masked rollout's main chain is masked", () => {
    // x and y share one cumulative sequence: z extends both and is quarantined.
    const x = call("x", [...p0, ...g1, 5], seq(800, 6));
    const y = call("y", [...p0, ...g1, 5, 800, 801], seq(802, 4));
    const z = call("z", [...p0, ...g1, 5, ...seq(800, 6), 7], seq(850, 9));
    const l = ledgerOf([c1, c2, x, y, z]);
    expect(l).toMatchObject({ quarantined: 9, branches: 10, delivered: 55 });
    expect(ledgerOf([c1, c2], true)).toMatchObject({ masked: 55, delivered: 0 });
  });

  it("without a build everything kept is masked", () => {
    const [side] = verdictOf([call("s", [1], [2, 3], "judge")]).side_calls;
    expect(rolloutLedger(null, [side!], 40, true)).toMatchObject({
      ...{ captured: 42, side_calls: 2, masked: 40, delivered: 0 },
    });
  });
});

describe("spliceFactsOf", () => {
  it("a turn that re-renders the previous generation (one token split in two) is re-rendered", () => {
    const rendered = [...p0, ...g1.slice(0, 4), 1, 2, ...g1.slice(5), ...seq(300, 5)];
    const b = verdictOf([c1, call("r2", rendered, seq(400, 40))]).build!;
    expect(spliceFactsOf(b)).toEqual({
      calls: 2,
      rerendered: 1,
      first: { call_id: "r2", chain: "main", position: p0.length + 4 },
    });
  });

  it("a compacted prompt (different from there on) and an exact splice are not", () => {
    const compacted = call("k2", [...p0, ...seq(5000, 60)], seq(400, 5));
    expect(spliceFactsOf(verdictOf([c1, compacted]).build!)).toMatchObject({ rerendered: 0 });
    expect(spliceFactsOf(verdictOf([c1, c2]).build!)).toEqual({
      calls: 2,
      rerendered: 0,
      first: null,
    });
  });
});
