// The run table's reasons in sentences: expected words are written here by hand from the banner's
// (lib/severity/reasons) forms for the facts given, so a change in either shows.
import { describe, expect, it } from "vitest";
import { summarySentences } from "./summary-sentences";

const base = {
  error: null,
  roots: null,
  chains: null,
  delivered_fraction: null,
  cut_short_call: null,
};

describe("summarySentences", () => {
  it("puts a mask reason in the banner's sentence, keeping its code", () => {
    const out = summarySentences({
      ...base,
      roots: 3,
      severity_reasons: [
        { code: "unresolved_retry", title: "unresolved final retry" },
        { code: "multiple_roots", title: "several roots" },
      ],
    });
    expect(out).toEqual([
      {
        code: "unresolved_retry",
        sentence:
          "Unresolved final retry: the builder cannot tell which of the final retry group the agent kept.",
      },
      {
        code: "multiple_roots",
        sentence:
          "Several roots: the calls start 3 roots, and this consumer masks any rollout without exactly one.",
      },
    ]);
  });

  it("names the cut-short call by its timeline number", () => {
    const out = summarySentences({
      ...base,
      cut_short_call: {
        position: 2,
        status_code: 422,
        error_category: "client_error",
        error_type: null,
        location: null,
        message: null,
      },
      severity_reasons: [{ code: "cut_short", title: "cut short" }],
    });
    expect(out[0]?.code).toBe("cut_short");
    expect(out[0]?.sentence).toMatch(/^Cut short: .*call 2 .*HTTP 422/);
  });

  it("falls back to the title as a sentence for a reason without facts", () => {
    expect(
      summarySentences({ ...base, severity_reasons: [{ code: "torn_tail", title: "torn tail" }] }),
    ).toEqual([{ code: "torn_tail", sentence: "Torn tail." }]);
  });
});
