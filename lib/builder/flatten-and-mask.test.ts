import { describe, expect, it } from "vitest";
import { decideVerdict, flattenChain, toVerdictRow } from "@/lib/builder";
import { golden } from "@/lib/testing/golden";
import { entry, parseEntries, snapshotOf } from "@/lib/testing/snapshot";

describe("flattening and masking", () => {
  it("a log-prob count mismatch on a chain is the seed's flatten error; gym-v1 refuses the read", () => {
    const bad = entry({
      model_call_id: "c2",
      prompt_token_ids: [1, 2, 3, 4],
      generation_token_ids: [5, 6],
      generation_log_probs: [-0.1],
    });
    const entries = [
      entry({ model_call_id: "c1", prompt_token_ids: [1, 2], generation_token_ids: [3] }),
      bad,
    ];
    const seed = decideVerdict(snapshotOf(entries), { profile: "seed" });
    expect(seed.error).toBe("ValueError: log-prob/token length mismatch on c2: 1 vs 2");
    expect(seed.metrics).toEqual({ n_calls: 2, side_calls_excluded: 0 });
    expect(toVerdictRow(seed).main).toBeNull();
    const mismatch = [
      { file: "x.tokens.jsonl", line: 2, model_call_id: "c2", log_probs: 1, tokens: 2 },
    ];
    const gym = decideVerdict(snapshotOf(entries, { logProbMismatches: mismatch }), {
      profile: "gym-v1",
    });
    expect(gym.error).toMatch(/^ValidationError: x\.tokens\.jsonl: line 2: /);
    expect(gym.metrics).toEqual({ n_calls: 0 });
  });
  it("flattens the main chain with masks, null log probs on re-fed tokens and spans", () => {
    const entries = parseEntries(golden().builder_fixture_inputs.append_only_3_calls!);
    const row = toVerdictRow(decideVerdict(snapshotOf(entries), { profile: "seed" }));
    expect(row.main).toEqual({
      call_ids: ["c1", "c2", "c3"],
      token_ids: [1, 2, 3, 10, 11, 4, 5, 12, 6, 13, 14],
      loss_mask: [0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1],
      log_probs: [null, null, null, -0.1, -0.1, null, null, -0.1, null, -0.1, -0.1],
    });
    const v = decideVerdict(snapshotOf(entries), { profile: "seed" });
    expect(flattenChain(v.build!, v.build!.chains[0]!).spans).toEqual([
      [3, 5, "c1"],
      [7, 8, "c2"],
      [9, 11, "c3"],
    ]);
  });
  it("an incomplete marker masks in both profiles; state and intents only in gym-v1", () => {
    const entries = parseEntries(golden().builder_fixture_inputs.append_only_3_calls!);
    for (const profile of ["seed", "gym-v1"] as const) {
      const v = decideVerdict(snapshotOf(entries, { incompleteMarker: [""] }), { profile });
      expect(v.mask_sample).toBe(true);
      expect(v.metrics.capture_incomplete).toBe(true);
    }
    const dangling = snapshotOf(entries, { danglingIntents: ["c9"] });
    expect(decideVerdict(dangling, { profile: "seed" }).mask_sample).toBe(false);
    expect(decideVerdict(dangling, { profile: "gym-v1" }).mask_reasons).toEqual([
      "capture_incomplete",
    ]);
  });
  it("conflicting duplicate payloads fail gym-v1's read with the store's message", () => {
    const entries = parseEntries(golden().builder_fixture_inputs.append_only_3_calls!);
    const v = decideVerdict(snapshotOf(entries, { conflictingPayloads: ["c2"] }), {
      profile: "gym-v1",
    });
    expect(v.error).toBe(
      "ValueError: Model call id 'c2' has conflicting durable payloads for rollout 't0-r0'",
    );
  });
  it("a seed rollout with no records is left untouched; gym-v1 masks it", () => {
    expect(decideVerdict(snapshotOf([]), { profile: "seed" })).toMatchObject({
      built: false,
      mask_sample: false,
      metrics: {},
    });
    expect(decideVerdict(snapshotOf([]), { profile: "gym-v1" })).toMatchObject({
      mask_sample: true,
      error: "capture contains no token records",
    });
  });
  it("a read error masks with the reader's message", () => {
    const v = decideVerdict(
      snapshotOf([], { readError: "JSONDecodeError: a.tokens.jsonl: line 2: not valid JSON" }),
      { profile: "seed" },
    );
    expect(v).toMatchObject({
      mask_sample: true,
      mask_reasons: ["build_error"],
      metrics: { n_calls: 0 },
    });
  });
});
