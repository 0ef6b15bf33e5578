// Mask reasons in words, for every view (the verdict bar, tables, alerts): a phrase and a short
// chart-axis label per builder reason. Which reasons apply is the builder's decision, not this.
import type { MaskReason } from "@/lib/builder";

const WORDS: Record<MaskReason, string> = {
  capture_incomplete: "capture incomplete (a lost call or dangling intent)",
  unresolved_retry: "unresolved final retry",
  all_side_calls: "every call was a side call",
  build_error: "build error",
  no_token_records: "nothing delivered (no token records)",
  multiple_roots: "several roots",
  multiple_chains: "several chains",
};

export function maskReasonWords(r: MaskReason): string {
  return WORDS[r];
}

const SHORT: Record<MaskReason, string> = {
  capture_incomplete: "incomplete",
  unresolved_retry: "unresolved retry",
  all_side_calls: "all side calls",
  build_error: "build error",
  no_token_records: "no records",
  multiple_roots: "several roots",
  multiple_chains: "several chains",
};

/** A chart-axis label: a few words. */
export function maskReasonShort(r: string): string {
  return r in SHORT ? SHORT[r as MaskReason] : r.replace(/_/g, " ");
}
