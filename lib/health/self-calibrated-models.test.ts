import { describe, expect, it } from "vitest";
import { healthNotes } from "./notes";
import { line, tempStore, tokenRecord } from "@/lib/testing/temp-store";
import { summarizeRollout } from "@/lib/rollout/summarize";

/** One rollout: the policy generates 6 tokens over two calls; two title calls by a small model. */
function store(): string {
  const policy = { requested_model: "big-policy" };
  const title = { requested_model: "small-titler" };
  return tempStore({
    "r1.tokens.jsonl": [
      line(tokenRecord("r1", "a", [1, 2], [3, 4, 5], { ...policy, created_at: 1 })),
      line(tokenRecord("r1", "t1", [9], [8], { ...title, created_at: 2 })),
      line(tokenRecord("r1", "b", [1, 2, 3, 4, 5, 6], [7, 8, 9], { ...policy, created_at: 3 })),
      line(tokenRecord("r1", "t2", [9, 9], [8], { ...title, created_at: 4 })),
    ].join(""),
  });
}

describe("a summary names the models self-calibration set aside", () => {
  it("counts side calls per requested model, and the run's note suggests that model", async () => {
    const dir = store();
    const summary = await summarizeRollout({
      rolloutId: "r1",
      tokensDir: dir,
      modelCallsDir: null,
      profile: "seed",
      record: null,
      bytes: 0,
      hasStoreFiles: true,
    });
    expect(summary.side_call_reasons).toEqual({ pattern: 0, self_calibration: 2 });
    expect(summary.self_calibrated_models).toEqual({ "small-titler": 2 });
    const note = healthNotes([summary], []).find((n) => n.kind === "self_calibrated_side_calls");
    expect(note!.message).toContain("`small-titler` (2)");
    expect(note!.message).toContain("--side-call-pattern small-titler");
  });

  it("names none when a pattern marked them", async () => {
    const summary = await summarizeRollout({
      rolloutId: "r1",
      tokensDir: store(),
      modelCallsDir: null,
      profile: "seed",
      sideCallPatterns: ["titler"],
      record: null,
      bytes: 0,
      hasStoreFiles: true,
    });
    expect(summary.side_call_reasons).toEqual({ pattern: 2, self_calibration: 0 });
    expect(summary.self_calibrated_models).toEqual({});
    const kinds = healthNotes([summary], ["titler"]).map((n) => n.kind);
    expect(kinds).not.toContain("self_calibrated_side_calls");
  });
});
