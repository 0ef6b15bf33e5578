// The run table's reasons as sentences: a rollout summary's severity reasons (code + title), put
// in the banner's words (./reasons) with the facts the summary keeps (the error, roots, chains,
// the cut-short call, the delivered fraction). A fact the summary lacks leaves the sentence's
// general form. The codes stay with each sentence for tooltips and exports.
import { isMaskReason } from "./classify";
import type { FailedCallFact } from "./failed-call";
import { branchesDroppedReason, cutShortReason, maskReason } from "./reasons";

export interface SummaryFacts {
  severity_reasons: ReadonlyArray<{ code: string; title: string }>;
  error: string | null;
  roots: number | null;
  chains: number | null;
  delivered_fraction: number | null;
  cut_short_call: FailedCallFact | null;
}

/** Each reason as { code, sentence }, in the summary's order. */
export function summarySentences(s: SummaryFacts): Array<{ code: string; sentence: string }> {
  return s.severity_reasons.map(({ code, title }) => {
    if (isMaskReason(code)) {
      const facts = {
        error: s.error,
        incomplete: null,
        roots: s.roots,
        chains: s.chains,
        unresolved_retries: null,
      };
      return { code, sentence: maskReason(code, facts).sentence };
    }
    if (code === "cut_short" && s.cut_short_call)
      return { code, sentence: cutShortReason(s.cut_short_call).sentence };
    if (code === "branches_dropped" && s.delivered_fraction !== null)
      return { code, sentence: branchesDroppedReason(s.delivered_fraction, null).sentence };
    const words = title.charAt(0).toUpperCase() + title.slice(1);
    return { code, sentence: words.endsWith(".") ? words : `${words}.` };
  });
}
