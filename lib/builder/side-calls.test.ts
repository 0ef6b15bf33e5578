import { describe, expect, it } from "vitest";
import { classifySideCalls, decideVerdict } from "@/lib/builder";
import { entry, snapshotOf } from "@/lib/testing/snapshot";

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
  it("keeps records without requested_model when self-calibration runs over two models", () => {
    // docs/builder.md §1, rule 3: entries with an empty requested_model are always kept, also when two named
    // models make self-calibration set one of them aside. Their generations, however large, are no
    // model's mass: the policy is the named model with the most tokens.
    const entries = [
      entry({
        model_call_id: "old",
        prompt_token_ids: [1],
        generation_token_ids: [2, 2, 2, 2, 2, 2],
      }),
      policy("p", [1, 2], [3, 3, 3]),
      entry({
        model_call_id: "probe",
        prompt_token_ids: [7],
        generation_token_ids: [1],
        requested_model: "claude-haiku",
      }),
    ];
    const c = classifySideCalls(entries, []);
    expect(c.policyModel).toBe("claude-opus");
    expect(c.kept.map((e) => e.model_call_id)).toEqual(["old", "p"]);
    expect(c.sideCalls.map((s) => s.model_call_id)).toEqual(["probe"]);
    expect(c.massByRequestedModel).toEqual({ "claude-opus": 3, "claude-haiku": 1 });
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
