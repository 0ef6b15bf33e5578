import { describe, expect, it } from "vitest";
import {
  buildPerRequest,
  decideVerdict,
  flattenChain,
  roundHalfEven,
  toVerdictRow,
} from "@/lib/builder";
import { golden } from "@/lib/testing/golden";
import { entry, parseEntries, snapshotOf } from "@/lib/testing/snapshot";

function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe("roundHalfEven", () => {
  it("rounds exact binary ties to even like Python's round()", () => {
    expect(roundHalfEven(0.03125, 4)).toBe(0.0312);
    expect(roundHalfEven(0.09375, 4)).toBe(0.0938);
    expect(roundHalfEven(2 / 3, 4)).toBe(0.6667);
    expect(roundHalfEven(0.8, 4)).toBe(0.8);
    expect(roundHalfEven(1, 4)).toBe(1);
    expect(roundHalfEven(0, 4)).toBe(0);
  });
});

describe("order independence", () => {
  for (const [name, raw] of Object.entries(golden().builder_fixture_inputs)) {
    it(`${name}: shuffled lines give the same verdict in both profiles`, () => {
      const entries = parseEntries(raw);
      for (const profile of ["seed", "gym-v1"] as const) {
        const want = toVerdictRow(decideVerdict(snapshotOf(entries), { profile }));
        for (const seed of [1, 2, 3]) {
          const got = toVerdictRow(decideVerdict(snapshotOf(shuffled(entries, seed)), { profile }));
          expect(got).toEqual(want);
        }
      }
    });
  }
});

describe("scale", () => {
  it("builds a 1,100-turn append-only chain without recursion", () => {
    const entries = [];
    let prompt = [1, 2, 3];
    for (let t = 0; t < 1100; t++) {
      const gen = [10_000 + t];
      entries.push(
        entry({
          model_call_id: `c${String(t).padStart(5, "0")}`,
          prompt_token_ids: prompt,
          generation_token_ids: gen,
        }),
      );
      prompt = [...prompt, ...gen, 7];
    }
    for (const profile of ["seed", "gym-v1"] as const) {
      const v = decideVerdict(snapshotOf(entries), { profile });
      expect(v.mask_sample).toBe(false);
      expect(v.build!.chains).toHaveLength(1);
      expect(v.build!.chains[0]!.nodes).toHaveLength(1100);
      expect(v.metrics.delivered_fraction).toBe(1);
    }
  });
  it("per_request makes one chain per call in processing order", () => {
    const entries = parseEntries(golden().builder_fixture_inputs.compaction_new_root!);
    const b = buildPerRequest(entries);
    expect(b.chains.map((c) => [c.chain_id, b.nodes[c.nodes[0]!]!.entry.model_call_id])).toEqual([
      ["req-0", "c3"],
      ["req-1", "c1"],
      ["req-2", "c2"],
    ]);
    expect(flattenChain(b, b.chains[2]!).loss_mask).toEqual([0, 0, 0, 0, 0, 0, 1]);
  });
});
