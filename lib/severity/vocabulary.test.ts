// Limits from docs/gym-v1-store.md §4: 0 … 2^31−1; ids past 2^53 arrive as digits.
import { describe, expect, it } from "vitest";
import { maskReasonsFromCapture } from "./record-reasons";
import { countOutsideVocabulary, isOutsideVocabulary } from "./vocabulary";

describe("token ids outside any vocabulary", () => {
  it("counts the gym-v1 cases' ids", () => {
    expect(countOutsideVocabulary([-1, 2, 3, 4, 5])).toBe(1); // negative-token-id
    expect(countOutsideVocabulary([1, 2, 3, "1152921504606846976", 5])).toBe(1); // token-id-2-pow-60
    expect(countOutsideVocabulary([1, 2, 3, 1152921504606846976n, 5])).toBe(1);
  });
  it("uses 2^31−1 as the bound, or the tokenizer's size when known", () => {
    expect(isOutsideVocabulary(2147483647)).toBe(false);
    expect(isOutsideVocabulary(2147483648)).toBe(true);
    expect(isOutsideVocabulary(200018, 200019)).toBe(false);
    expect(isOutsideVocabulary(200019, 200019)).toBe(true);
    expect(isOutsideVocabulary(1.5)).toBe(true);
    expect(isOutsideVocabulary("12abc")).toBe(true);
  });
});

describe("maskReasonsFromCapture", () => {
  it("reads §8.5 error strings and capture_incomplete back from a record", () => {
    expect(maskReasonsFromCapture(null)).toEqual([]);
    expect(
      maskReasonsFromCapture({
        n_calls: 2,
        side_calls_excluded: 2,
        error: "all captured calls were side calls",
      }),
    ).toEqual(["all_side_calls"]);
    expect(
      maskReasonsFromCapture({
        n_calls: 0,
        error: "capture contains no token records",
        capture_incomplete: true,
      }),
    ).toEqual(["no_token_records", "capture_incomplete"]);
    expect(
      maskReasonsFromCapture({
        n_calls: 0,
        error: "RuntimeError: Token capture for rollout r0 is retired",
      }),
    ).toEqual(["build_error"]);
    expect(maskReasonsFromCapture({ n_calls: 1, delivered_fraction: 1 })).toEqual([]);
  });
});
