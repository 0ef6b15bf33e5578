// Each reason's title maps back to the class lib/severity gave that reason.
import { describe, expect, it } from "vitest";
import {
  agentMaskedReason,
  branchesDroppedReason,
  maskReason,
  noCaptureReason,
  otherMaskReason,
  otherModelReason,
  outOfVocabularyReason,
  pendingReason,
  tornTailReason,
} from "@/lib/severity/reasons";
import { reasonTitleSeverity } from "./reason-severity";

const facts = { error: null, incomplete: null, roots: 2, chains: 2, unresolved_retries: null };

describe("reasonTitleSeverity", () => {
  it("gives each reason the class lib/severity gave it", () => {
    const reasons = [
      noCaptureReason(true),
      tornTailReason(),
      outOfVocabularyReason(3),
      otherModelReason("side", "policy"),
      agentMaskedReason(),
      otherMaskReason("too_long"),
      pendingReason("indexing"),
      branchesDroppedReason(0.5, null),
      maskReason("multiple_chains", facts),
      maskReason("build_error", facts),
    ];
    for (const r of reasons)
      expect([r.title, reasonTitleSeverity(r.title)]).toEqual([r.title, r.severity]);
  });

  it("paints a warning amber and a mask reason red, never the same", () => {
    expect(reasonTitleSeverity("cut short")).toBe("trained_with_warnings");
    expect(reasonTitleSeverity("capture incomplete")).toBe("masked");
  });
});
