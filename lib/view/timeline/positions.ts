// Call numbers for sentences ("call 2 got HTTP 422"): every captured and failed call numbered in
// the order the call timeline shows them. Pure; the timeline rows themselves are ./rows'.
import type { CallView, FailedCall } from "@/lib/schema";
import { pushTo } from "../group";

/**
 * The 1-based number of every captured and failed call in timeline order (dangling intents are
 * not numbered: they never reached a server). Failed calls sit after the call they came after, or
 * open the timeline, exactly as `buildTimeline` places them; a banner's "call 2" is this number.
 */
export function timelinePositions(
  calls: ReadonlyArray<Pick<CallView, "model_call_id">>,
  failed: ReadonlyArray<Pick<FailedCall, "model_call_id" | "after_call">>,
): Map<string, number> {
  const ids = new Set(calls.map((c) => c.model_call_id));
  const after = new Map<string | null, string[]>();
  for (const f of failed) {
    const at = f.after_call !== null && ids.has(f.after_call) ? f.after_call : null;
    pushTo(after, at, f.model_call_id);
  }
  const out = new Map<string, number>();
  const number = (id: string) => out.has(id) || out.set(id, out.size + 1);
  for (const id of after.get(null) ?? []) number(id);
  for (const c of calls) {
    number(c.model_call_id);
    for (const id of after.get(c.model_call_id) ?? []) number(id);
  }
  return out;
}
