import { describe, expect, it } from "vitest";
import { buildPrefixMerging, decideVerdict, PROFILE_OPTIONS, tokenDigest } from "@/lib/builder";
import { entry, snapshotOf } from "@/lib/testing/snapshot";

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
