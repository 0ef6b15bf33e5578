import { describe, expect, it } from "vitest";
import { parseRolloutQuery } from "@/lib/index/query";
import { selectRollouts } from "@/lib/testing/rollout-query-reference";
import { summaryOf } from "@/lib/testing/summary";
import { computeHealth } from "@/lib/testing/health-reference";
import { healthNotes } from "./notes";

const reasons = (self_calibration: number, pattern = 0) => ({ pattern, self_calibration });

/** A summary as it will be once it names the models of its self-calibrated side calls. */
const withModels = (id: string, models: Record<string, number>) => ({
  ...summaryOf({
    rollout_id: id,
    side_call_reasons: reasons(Object.values(models).reduce((a, b) => a + b, 0)),
  }),
  self_calibrated_models: models,
});

describe("the other profile's disagreement", () => {
  // A bare directory served under seed: most rollouts would be masked differently under gym-v1.
  const rows = Array.from({ length: 40 }, (_, i) =>
    summaryOf({ rollout_id: `${i}-0`, other_profile_disagrees: i >= 3 }),
  );

  it("is no alert, however many rollouts it names", () => {
    const h = computeHealth(rows);
    expect(h.alerts).toEqual([]);
  });

  it("is one note naming the other profile, whose link lists exactly those rollouts", () => {
    const notes = healthNotes(rows, []);
    expect(notes).toHaveLength(1);
    const note = notes[0]!;
    expect(note).toMatchObject({ kind: "profile_disagreement", count: 37 });
    expect(note.message).toMatch(/^37 of 40 rollouts would be masked differently under gym-v1, /);
    const listed = selectRollouts(rows, parseRolloutQuery(new URLSearchParams(note.table_query!)));
    expect(listed.map((s) => s.rollout_id)).toEqual(
      Array.from({ length: 37 }, (_, i) => `${i + 3}-0`),
    );
  });

  it("says the other builder profile when the rollouts were decided under both", () => {
    const mixed = [
      summaryOf({ rollout_id: "a", profile: "seed", other_profile_disagrees: true }),
      summaryOf({ rollout_id: "b", profile: "gym-v1", other_profile_disagrees: true }),
    ];
    expect(healthNotes(mixed, [])[0]!.message).toContain(
      "2 of 2 rollouts would be masked differently under the other builder profile",
    );
    expect(healthNotes([summaryOf()], [])).toEqual([]);
  });
});

describe("self-calibrated side calls with no patterns", () => {
  it("counts the calls and rollouts and suggests the model most of them name", () => {
    const rows = [
      withModels("a", { "claude-haiku-4-5": 2, "gpt-4o-mini": 1 }),
      withModels("b", { "claude-haiku-4-5": 2 }),
      withModels("c", {}),
    ];
    const [note, ...rest] = healthNotes(rows, []);
    expect(rest).toEqual([]);
    expect(note).toMatchObject({ kind: "self_calibrated_side_calls", count: 5, table_query: null });
    expect(note!.message).toContain("Self-calibration found 5 side calls in 2 rollouts");
    expect(note!.message).toContain("Most name `claude-haiku-4-5` (4)");
    expect(note!.message).toContain("--side-call-pattern claude-haiku-4-5");
  });

  it("without model names still says where patterns go; one call reads singular", () => {
    const [note] = healthNotes([summaryOf({ side_call_reasons: reasons(1) })], []);
    expect(note!.message).toMatch(/^Self-calibration found 1 side call in 1 rollout: /);
    expect(note!.message).toContain("side_call_patterns");
    expect(note!.message).not.toContain("Most name");
  });

  it("says nothing once patterns are set, or when self-calibration found none", () => {
    expect(healthNotes([summaryOf({ side_call_reasons: reasons(4) })], ["haiku"])).toEqual([]);
    expect(healthNotes([summaryOf({ side_call_reasons: reasons(0, 3) })], [])).toEqual([]);
  });
});
