// The one rule for "trained", per viewed sequence and call role. The truth is hand-derived from
// the rule (docs: a token is trained only in the delivered main chain of a trained rollout, mask 1),
// not read back from the function: each row names what a user must see.
import { describe, expect, it } from "vitest";
import type { CallView } from "@/lib/schema/api-rollout";
import type { SeverityState } from "@/lib/severity";
import { sequenceTraining } from "./sequence-training";

type Role = Pick<CallView, "role" | "quarantine" | "retry">;
const CALLS = new Map<string, Role>([
  ["m", { role: "main", quarantine: null, retry: null }],
  ["kept", { role: "main", quarantine: null, retry: "kept" }],
  ["drop", { role: "quarantined", quarantine: "retry_dropped", retry: "dropped" }],
  ["unres", { role: "quarantined", quarantine: "retry_dropped", retry: "unresolved" }],
  ["amb", { role: "quarantined", quarantine: "ambiguous_parent", retry: null }],
  ["br", { role: "branch", quarantine: null, retry: null }],
  ["side", { role: "side_call", quarantine: null, retry: null }],
  ["ex", { role: "excluded", quarantine: null, retry: null }],
  ["un", { role: "unchained", quarantine: null, retry: null }],
]);

describe("sequenceTraining", () => {
  // [severity, sequence, trained, words]
  const cases: Array<[SeverityState, string, boolean, string]> = [
    ["trained", "main", true, "trained"],
    ["trained_with_warnings", "main", true, "trained with warnings"],
    ["trained", "call:m", true, "trained"],
    ["trained_with_warnings", "call:kept", true, "trained with warnings"],
    // The README's 2-0: a trained-with-warnings rollout whose first attempt was dropped.
    ["trained_with_warnings", "call:drop", false, "not trained (retry dropped)"],
    ["trained", "call:unres", false, "not trained (retry unresolved)"],
    ["trained", "call:amb", false, "not trained (quarantined)"],
    ["trained", "call:br", false, "not trained (branch dropped)"],
    ["trained", "branch-1", false, "not trained (branch dropped)"],
    ["trained_with_warnings", "branch-2", false, "not trained (branch dropped)"],
    ["trained", "call:side", false, "not trained (side call)"],
    ["trained", "call:ex", false, "not trained (excluded)"],
    ["trained", "call:un", false, "not trained (not in a chain)"],
    ["trained", "call:nowhere", false, "not trained (not in the delivered chain)"],
    // A masked rollout trains nothing and never says the word.
    ["masked", "main", false, "excluded: rollout masked"],
    ["masked", "call:m", false, "excluded: rollout masked"],
    ["masked", "call:drop", false, "excluded: rollout masked"],
    // Pending claims nothing for the main chain, but a dropped call is never delivered.
    ["pending", "main", false, ""],
    ["pending", "call:m", false, ""],
    ["pending", "call:drop", false, "not trained (retry dropped)"],
    ["pending", "branch-1", false, "not trained (branch dropped)"],
  ];
  for (const [severity, sequence, trained, words] of cases) {
    it(`${severity} ${sequence}: ${words || "(no claim)"}`, () => {
      const t = sequenceTraining(severity, sequence, CALLS);
      expect({ trained: t.trained, words: t.words }).toEqual({ trained, words });
      // Known not trained exactly when it says so; never both.
      expect(t.notTrained).toBe(words.startsWith("not trained") || words.startsWith("excluded"));
      expect(t.trained && t.notTrained).toBe(false);
    });
  }

  it("in a branch chain, a main-chain call's own tokens are main's, so trained", () => {
    expect(sequenceTraining("trained", "branch-1", CALLS, "m").words).toBe("trained");
    expect(sequenceTraining("trained", "branch-1", CALLS, "br").words).toBe(
      "not trained (branch dropped)",
    );
    expect(sequenceTraining("trained", "branch-1", CALLS, null).words).toBe(
      "not trained (branch dropped)",
    );
    expect(sequenceTraining("masked", "branch-1", CALLS, "m").words).toBe(
      "excluded: rollout masked",
    );
    // A call shown alone is judged by itself, never by another call.
    expect(sequenceTraining("trained", "call:drop", CALLS, "m").words).toBe(
      "not trained (retry dropped)",
    );
  });

  it("never words a not-trained sequence as trained without the 'not'", () => {
    for (const [severity, sequence] of cases) {
      const t = sequenceTraining(severity, sequence, CALLS);
      if (!t.trained) expect(t.words).not.toMatch(/^trained/);
    }
  });
});
