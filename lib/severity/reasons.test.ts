// Mask reasons, the retired tombstone and the warnings other than seed 000's, with sentences
// written from docs/capture-format.md §8, docs/gym-v1-store.md and the gym-v1 cases' expected.jsonl.
import { describe, expect, it } from "vitest";
import {
  bannerSentences,
  classifySeverity,
  headline,
  reasonTitles,
  type SeverityInput,
} from "./classify";

/** A clean, trained rollout; cases override what differs. */
const clean: SeverityInput = {
  mask_sample: false,
  mask_reasons: [],
  error: null,
  record_mask_sample: null,
  delivered_fraction: 1,
  torn_tail: false,
  has_capture: true,
  capture_expected: true,
};

describe("mask reasons", () => {
  it("masks a dangling intent and names it (gym-main-v1 3-0)", () => {
    const result = classifySeverity({
      ...clean,
      mask_sample: true,
      mask_reasons: ["capture_incomplete"],
      incomplete: {
        dangling_intents: ["525e5c8bbe0e48758a41a2bcb111c7f7"],
        lost_calls: [],
        state_flag: false,
      },
    });
    expect(result.severity).toBe("masked");
    expect(headline(result)).toBe("Masked: excluded from training");
    expect(bannerSentences(result)).toEqual([
      "Masked: excluded from training.",
      "Capture incomplete: intent `525e5c8bbe0e48758a41a2bcb111c7f7` never got a token entry, so the snapshot is missing calls.",
    ]);
  });

  it("masks an intent-only store with both reasons (gym-main-example 2-0)", () => {
    const result = classifySeverity({
      ...clean,
      mask_sample: true,
      mask_reasons: ["no_token_records", "capture_incomplete"],
      error: "capture contains no token records",
      incomplete: { dangling_intents: ["c9"], lost_calls: [], state_flag: false },
    });
    expect(reasonTitles(result)).toBe("no token records · capture incomplete");
  });

  it("masks unresolved retries and still reports the dropped tokens (gym-v1 case non-bmp-call-ids)", () => {
    const result = classifySeverity({
      ...clean,
      mask_sample: true,
      mask_reasons: ["unresolved_retry"],
      unresolved_retries: 2,
      delivered_fraction: 0.6,
      generated_tokens: { captured: 5, delivered: 3 },
    });
    expect(result.severity).toBe("masked");
    expect(result.reasons.map((r) => [r.code, r.severity])).toEqual([
      ["unresolved_retry", "masked"],
      ["branches_dropped", "trained_with_warnings"],
    ]);
    expect(result.reasons[1]?.sentence).toBe(
      "Branches dropped: the main chain carries 60% of the generated tokens captured (3 of 5); the rest (branches, dropped retries, quarantined calls) is left out of training.",
    );
  });

  it("names the build error string (gym-v1 case state-not-object)", () => {
    const error = "ValueError: Invalid token-capture state for rollout r0";
    const result = classifySeverity({
      ...clean,
      mask_sample: true,
      mask_reasons: ["build_error"],
      error,
    });
    expect(result.reasons.map((r) => r.sentence)).toEqual([
      "Build error: the consumer failed with `ValueError: Invalid token-capture state for rollout r0`.",
    ]);
  });

  it("masks when only the record says so: the agent's own mask_sample (§8.2)", () => {
    const result = classifySeverity({ ...clean, record_mask_sample: true });
    expect(result.severity).toBe("masked");
    expect(result.reasons.map((r) => r.code)).toEqual(["agent_masked"]);
  });

  it("keeps a newer consumer's reason in words", () => {
    const result = classifySeverity({
      ...clean,
      mask_sample: true,
      mask_reasons: ["unresolved_parent_calls"],
    });
    expect(result.severity).toBe("masked");
    expect(result.reasons[0]?.title).toBe("unresolved parent calls");
  });
});

describe("a retired tombstone (gym-main-example 3-0, gym-v1 case retired-tombstone)", () => {
  const tombstone = { frozen: true, snapshot_id: "68b22a656cd542c6becb4ee27a870f9c", version: 2 };
  const error = "RuntimeError: Token capture for rollout 3-0 is retired";
  const sentence =
    "Retired tombstone: frozen at snapshot `68b22a656cd542c6becb4ee27a870f9c`, version 2, delivered, then its token files were deleted; the consumer now answers `RuntimeError: Token capture for rollout 3-0 is retired`.";

  it("takes Gym's verdict (masked) and says what the tombstone recorded, once", () => {
    for (const reasons of [["build_error"], []]) {
      const result = classifySeverity({
        ...clean,
        mask_sample: true,
        mask_reasons: reasons,
        error,
        tombstone,
        has_capture: true,
      });
      expect(result.severity).toBe("masked");
      expect(result.reasons.map((r) => r.sentence)).toEqual([sentence]);
    }
  });

  it("is never plain trained when a profile does not mask it", () => {
    const result = classifySeverity({ ...clean, mask_sample: false, error, tombstone });
    expect(result.severity).toBe("trained_with_warnings");
    expect(result.reasons.map((r) => r.code)).toEqual(["retired"]);
  });
});

describe("other warnings", () => {
  it("warns on a torn tail that Gym drops (gym-v1 case newline-terminated-garbage-tail)", () => {
    const result = classifySeverity({ ...clean, torn_tail: true });
    expect(result.severity).toBe("trained_with_warnings");
    expect(bannerSentences(result)).toEqual([
      "Trained on, but torn tail: the token file ends in a partial line (a write cut off); it was left out, as Gym's freeze drops it, and the rest was built.",
    ]);
  });

  it("warns on token ids outside any vocabulary (gym-v1 case negative-token-id)", () => {
    const result = classifySeverity({ ...clean, oov_tokens: 1 });
    expect(result.reasons.map((r) => [r.code, r.title])).toEqual([
      ["out_of_vocabulary", "token ids outside any vocabulary"],
    ]);
  });

  it("does not call an empty capture a dropped branch (§6.7: 0.0 when nothing was captured)", () => {
    const result = classifySeverity({
      ...clean,
      delivered_fraction: 0,
      generated_tokens: { captured: 0, delivered: 0 },
    });
    expect(result.severity).toBe("trained");
  });

  it("warns when a capture-on run has no capture for the rollout, not when capture is off", () => {
    expect(
      classifySeverity({ ...clean, has_capture: false, capture_expected: true }).reasons.map(
        (r) => r.code,
      ),
    ).toEqual(["no_capture"]);
    expect(
      classifySeverity({ ...clean, has_capture: false, capture_expected: null }).severity,
    ).toBe("trained_with_warnings");
    expect(
      classifySeverity({ ...clean, has_capture: false, capture_expected: false }).severity,
    ).toBe("trained");
  });

  it("words a partial delivery below 100% and an unstated capture setting", () => {
    const nearly = classifySeverity({ ...clean, delivered_fraction: 0.9996 });
    expect(nearly.reasons[0]?.detail).toMatch(/^the main chain carries 99\.9% of/);
    const unstated = classifySeverity({ ...clean, has_capture: false, capture_expected: null });
    expect(unstated.reasons[0]?.sentence).toBe(
      "No token capture: nothing was captured for this rollout and the run does not say whether it captures tokens, so the trainer uses the record as the agent wrote it.",
    );
  });

  it("lists every warning; the first joins the verdict", () => {
    const result = classifySeverity({ ...clean, torn_tail: true, oov_tokens: 3 });
    const banner = bannerSentences(result);
    expect(banner).toHaveLength(2);
    expect(banner[0]).toMatch(
      /^Trained on, but token ids outside any vocabulary: 3 token ids lie outside/,
    );
    expect(banner[1]).toMatch(/^Torn tail: /);
  });
});
