// Mask reasons read back from a rollout record's `_ng_token_capture` (docs/capture-format.md §8.2,
// §8.5), for rollouts summarised from the record alone (capture consumed or no store files).
// The builder's own verdict, when a store exists, is the better source and wins.
import type { MaskReason } from "@/lib/builder";

const ALL_SIDE_CALLS = "all captured calls were side calls";
const NO_RECORDS = "capture contains no token records";

/** The reasons a delivered `_ng_token_capture` still shows: its error and `capture_incomplete`. */
export function maskReasonsFromCapture(
  tokenCapture: Readonly<Record<string, unknown>> | null,
): MaskReason[] {
  if (!tokenCapture) return [];
  const out: MaskReason[] = [];
  const error = typeof tokenCapture.error === "string" ? tokenCapture.error : null;
  if (error !== null) {
    if (error.startsWith(ALL_SIDE_CALLS)) out.push("all_side_calls");
    else if (error.startsWith(NO_RECORDS)) out.push("no_token_records");
    else out.push("build_error");
  }
  if (tokenCapture.capture_incomplete === true) out.push("capture_incomplete");
  return out;
}
