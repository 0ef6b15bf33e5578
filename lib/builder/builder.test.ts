import { describe, expect, it } from "vitest";
import {
  buildPerRequest,
  buildPrefixMerging,
  classifySideCalls,
  decideVerdict,
  flattenChain,
  PROFILE_OPTIONS,
  roundHalfEven,
  tokenDigest,
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

describe("side calls (seed profile)", () => {
  const policy = (id: string, prompt: number[], gen: number[]) =>
    entry({
      model_call_id: id,
      prompt_token_ids: prompt,
      generation_token_ids: gen,
      requested_model: "claude-opus",
    });
  it("excludes pattern matches case-insensitively and reports the pattern", () => {
    const entries = [
      policy("a", [1, 2], [3]),
      entry({
        model_call_id: "t",
        prompt_token_ids: [9],
        generation_token_ids: [8],
        requested_model: "Claude-HAIKU-4",
      }),
    ];
    const c = classifySideCalls(entries, ["", "haiku"]);
    expect(c.kept.map((e) => e.model_call_id)).toEqual(["a"]);
    expect(c.sideCalls).toEqual([
      {
        model_call_id: "t",
        requested_model: "Claude-HAIKU-4",
        generated_tokens: 1,
        reason: { kind: "pattern", pattern: "haiku" },
      },
    ]);
  });
  it("self-calibrates: the model with the most generated tokens is the policy, even a small one", () => {
    const entries = [
      policy("main1", [1, 2], [3, 4]),
      entry({
        model_call_id: "probe",
        prompt_token_ids: [7],
        generation_token_ids: [1, 1, 1, 1, 1],
        requested_model: "claude-haiku",
      }),
    ];
    const v = decideVerdict(snapshotOf(entries), { profile: "seed" });
    expect(v.side_calls.map((s) => s.model_call_id)).toEqual(["main1"]);
    expect(v.side_calls[0]!.reason).toEqual({
      kind: "self_calibration",
      policy_model: "claude-haiku",
      policy_generated_tokens: 5,
    });
    expect(v.metrics.side_calls_excluded).toBe(1);
  });
  it("breaks a mass tie towards the lexicographically greatest model", () => {
    const entries = [
      entry({
        model_call_id: "x",
        prompt_token_ids: [1],
        generation_token_ids: [2],
        requested_model: "alpha",
      }),
      entry({
        model_call_id: "y",
        prompt_token_ids: [5],
        generation_token_ids: [6],
        requested_model: "beta",
      }),
    ];
    expect(classifySideCalls(entries, []).policyModel).toBe("beta");
  });
  it("keeps records without requested_model and leaves single-model rollouts alone", () => {
    const entries = [
      entry({ model_call_id: "old", prompt_token_ids: [1], generation_token_ids: [2] }),
      policy("p", [1, 2], [3]),
    ];
    expect(classifySideCalls(entries, []).sideCalls).toEqual([]);
  });
  it("masks a rollout made only of side calls with the reference error and metrics", () => {
    const entries = [
      entry({
        model_call_id: "t",
        prompt_token_ids: [9],
        generation_token_ids: [8],
        requested_model: "haiku",
      }),
    ];
    const v = decideVerdict(snapshotOf(entries, { incompleteMarker: ["c9"] }), {
      profile: "seed",
      sideCallPatterns: ["haiku"],
    });
    expect(v.mask_sample).toBe(true);
    expect(v.error).toBe("all captured calls were side calls");
    expect(v.metrics).toEqual({ n_calls: 1, side_calls_excluded: 1, capture_incomplete: true });
    expect(v.mask_reasons).toEqual(["all_side_calls", "capture_incomplete"]);
  });
});

describe("recorded parent links (seed profile)", () => {
  const root = entry({
    model_call_id: "r",
    prompt_token_ids: [1, 2, 3],
    generation_token_ids: [4, 5],
    digest: tokenDigest([1, 2, 3, 4, 5]),
    cum_len: 5,
  });
  const twin = entry({
    model_call_id: "s",
    prompt_token_ids: [1, 2, 3],
    generation_token_ids: [4, 5],
  });
  it("accepts a digest-verified parent and never calls it ambiguous", () => {
    const child = entry({
      model_call_id: "c",
      prompt_token_ids: [1, 2, 3, 4, 5, 6],
      generation_token_ids: [7],
      parent_call_id: "r",
    });
    const b = buildPrefixMerging([root, twin, child], PROFILE_OPTIONS.seed);
    const node = b.nodes.find((n) => n.entry.model_call_id === "c")!;
    expect(node.link).toBe("recorded");
    expect(b.nodes[node.parent]!.entry.model_call_id).toBe("r");
    expect(b.notes.parent_link_fallbacks).toBeUndefined();
  });
  it("falls back to inference on a digest mismatch and counts it", () => {
    const stale = entry({ ...root, model_call_id: "r", digest: "0".repeat(64) });
    const child = entry({
      model_call_id: "c",
      prompt_token_ids: [1, 2, 3, 4, 5, 6],
      generation_token_ids: [7],
      parent_call_id: "r",
    });
    const b = buildPrefixMerging([stale, child], PROFILE_OPTIONS.seed);
    const node = b.nodes[1]!;
    expect(node.fallback).toBe("parent_digest_mismatch");
    expect(node.link).toBe("inferred");
    expect(b.notes.parent_link_fallbacks).toEqual({ parent_digest_mismatch: 1 });
  });
  it("falls back when the recorded parent is missing or longer than the prompt", () => {
    const orphan = entry({
      model_call_id: "c",
      prompt_token_ids: [1, 2, 3, 4, 5, 6],
      generation_token_ids: [7],
      parent_call_id: "gone",
    });
    const tooLong = entry({
      model_call_id: "d",
      prompt_token_ids: [1, 2, 3, 4],
      generation_token_ids: [7],
      parent_call_id: "r",
    });
    const b = buildPrefixMerging([root, orphan, tooLong], PROFILE_OPTIONS.seed);
    expect(b.notes.parent_link_fallbacks).toEqual({
      parent_call_id_missing: 1,
      parent_digest_mismatch: 1,
    });
    const v = decideVerdict(snapshotOf([root, orphan]), { profile: "seed" });
    expect(v.metrics.parent_link_fallbacks).toEqual({ parent_call_id_missing: 1 });
  });
  it("gym-v1 ignores recorded links and infers", () => {
    const child = entry({
      model_call_id: "c",
      prompt_token_ids: [1, 2, 3, 4, 5, 6],
      generation_token_ids: [7],
      parent_call_id: "r",
    });
    const b = buildPrefixMerging([root, twin, child], PROFILE_OPTIONS["gym-v1"]);
    expect(b.nodes.find((n) => n.entry.model_call_id === "c")!.link).toBe("ambiguous");
  });
});

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
