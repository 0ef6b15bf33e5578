// The records' hand check (parseRolloutRecord) against the schema it stands in for: the same
// records out, byte for byte (a record's hash keys its row), and the same errors for bad rows;
// the records every writer writes never reach zod (the point of the check).
import { describe, expect, it, vi } from "vitest";
import { parseRolloutRecord, rolloutRecordSchema } from "./rollout-record";

/** Records as Gym writes them: checked by hand. */
const common: unknown[] = [
  { _ng_task_index: 3, _ng_rollout_index: 0, reward: 1, step: 2, extra: { a: [1, 2] } },
  { zz: 1, reward_components: { a: 0.5, b: 1 }, reward: -0.25, _ng_attempt_index: 2 },
  { _ng_rollout_id: "r-1", agent_ref: { name: "swe", v: 2 }, mask_sample: true },
  { agent_ref: { v: 2 }, response: { output: [] }, _ng_token_capture: { n_calls: 3 } },
  { ng_model_call_capture: { calls: 1 }, reward: null, step: null, mask_sample: null },
  {},
];

/** Shapes the hand check leaves to zod: `name` not first, an own __proto__ key. */
const odd: unknown[] = [
  { agent_ref: { v: 2, name: "swe" }, reward: 1 },
  JSON.parse('{"reward": 1, "__proto__": {"x": 1}}'),
  JSON.parse('{"_ng_token_capture": {"__proto__": 1, "n_calls": 2}}'),
];

const bad: unknown[] = [
  { step: 1.5 },
  { reward: "1" },
  { agent_ref: { name: 3 } },
  { reward_components: { a: "x" } },
  { reward_components: null },
  { _ng_rollout_id: 7, mask_sample: "yes" },
  { _ng_task_index: 2 ** 60 },
  [1, 2],
  "text",
  null,
];

const json = (v: unknown) => JSON.stringify(v);

describe("parseRolloutRecord", () => {
  it("gives zod's record for every good one, keys in the same order", () => {
    const zod = vi.spyOn(rolloutRecordSchema, "safeParse");
    for (const v of [...common, ...odd]) {
      const expected = rolloutRecordSchema.safeParse(v);
      zod.mockClear();
      const got = parseRolloutRecord(v);
      expect(expected.success && got.success).toBe(true);
      if (expected.success && got.success) expect(json(got.data)).toBe(json(expected.data));
      // Common records never reach zod; odd ones do.
      expect(zod).toHaveBeenCalledTimes(common.includes(v) ? 0 : 1);
    }
    zod.mockRestore();
  });

  it("gives zod's error for every bad one", () => {
    for (const v of bad) {
      const want = rolloutRecordSchema.safeParse(v);
      const got = parseRolloutRecord(v);
      expect(want.success).toBe(false);
      expect(got.success).toBe(false);
      if (!want.success && !got.success) expect(got.error.issues).toEqual(want.error.issues);
    }
  });
});
