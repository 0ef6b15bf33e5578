// Mask reasons in words, for every view (the verdict bar, tables, alerts).
import type { MaskReason } from "@/lib/builder/verdict";

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
