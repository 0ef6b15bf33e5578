import { describe, expect, it } from "vitest";
import {
  decideVerdict,
  materializeItems,
  flattenChain,
  tokenDigest,
  type Profile,
} from "@/lib/builder";
import { golden, type GoldenExpectation } from "@/lib/testing/golden";
import { describeChains, parseEntries, snapshotOf } from "@/lib/testing/snapshot";

const g = golden();

describe("token digest", () => {
  for (const v of g.token_digest_v1.vectors) {
    it(`matches the upstream vector "${v.name}"`, () => {
      const tokens = Array.isArray(v.tokens) ? v.tokens : Array.from({ length: 1000 }, (_, i) => i);
      expect(tokenDigest(tokens)).toBe(v.digest);
    });
  }
  it("matches the worked example and a sub-range digest", () => {
    const w = g.token_digest_v1.worked_example;
    expect(tokenDigest(w.cumulative)).toBe(w.digest);
    expect(tokenDigest([9, 1, 2, 3, 4, 5, 6], 1, 6)).toBe(w.digest);
    const extra = g.token_digest_v1.extra_examples[0]!;
    expect(tokenDigest(extra.tokens as number[])).toBe(extra.digest);
  });
  it("refuses negative ids", () => {
    expect(() => tokenDigest([1, -2])).toThrow(/cannot be digested/);
  });
});

const PROFILE_KEYS: Record<Profile, "seed004_pr2179" | "main_aug2026_v1"> = {
  seed: "seed004_pr2179",
  "gym-v1": "main_aug2026_v1",
};

for (const profile of ["seed", "gym-v1"] as const) {
  describe(`builder fixtures, ${profile} profile`, () => {
    const expectations = g.builder_expected[PROFILE_KEYS[profile]];
    for (const [name, raw] of Object.entries(g.builder_fixture_inputs)) {
      const want = expectations[name] as GoldenExpectation;
      it(name, () => {
        const v = decideVerdict(snapshotOf(parseEntries(raw)), { profile });
        const build = v.build!;
        expect(describeChains(build)).toEqual(want.chains);
        expect(build.quarantined).toEqual(want.quarantined);
        expect(build.notes).toEqual(want.builder_notes);
        expect(v.mask_sample).toBe(want.consumer.mask_sample);
        expect(v.error ?? undefined).toBe(want.consumer.error);
        expect(v.metrics).toEqual(want.consumer.metrics);
        if (want.consumer.unresolved_retries)
          expect(build.notes.unresolved_retries).toEqual(want.consumer.unresolved_retries);
        if (want.projection === null) {
          expect(v.projection).toBeNull();
          return;
        }
        const projection = v.projection!;
        expect(projection.usage).toEqual(want.projection.usage);
        const main = build.chains[build.mainIndex];
        const flat = main ? flattenChain(build, main).token_ids : [];
        const items = materializeItems(build, projection, flat);
        expect(items).toHaveLength(want.projection.output.length);
        want.projection.output.forEach((wantItem, k) => {
          const got = items[k]!;
          expect(got.type).toBe(wantItem.type);
          expect(got.prompt_token_ids).toEqual(wantItem.prompt_token_ids);
          expect(got.generation_token_ids).toEqual(wantItem.generation_token_ids);
        });
        // The trained sequence and its loss mask, derived from the upstream projection alone: each
        // output item's prompt extends the sequence so far (its new tokens re-fed, mask 0) and its
        // generation follows (mask 1). Content-only items carry no tokens.
        if (main) {
          const want_ids: number[] = [];
          const want_mask: number[] = [];
          for (const item of want.projection.output) {
            const prompt = item.prompt_token_ids as number[] | undefined;
            const generation = item.generation_token_ids as number[] | undefined;
            if (!prompt || !generation) continue; // a content-only item
            expect(prompt.slice(0, want_ids.length)).toEqual(want_ids);
            for (const t of prompt.slice(want_ids.length)) {
              want_ids.push(t);
              want_mask.push(0);
            }
            for (const t of generation) {
              want_ids.push(t);
              want_mask.push(1);
            }
          }
          const got = flattenChain(build, main);
          expect(got.token_ids).toEqual(want_ids);
          expect(got.loss_mask).toEqual(want_mask);
        }
      });
    }
  });
}
