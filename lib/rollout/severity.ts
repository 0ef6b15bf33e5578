// A summary's severity (lib/severity classifies) and the one fact of it only the summary needs: the
// failed call that ended the timeline, numbered as the inspector numbers calls. The facts shared
// with the inspector are ./facts'; run-level facts (the policy model) are lib/health's.
import type { RolloutSummary, TokenEntry } from "@/lib/schema";
import {
  classifySeverity,
  failedCallFromExchange,
  isFailedExchange,
  type FailedCallFact,
  type SeverityInput,
} from "@/lib/severity";
import type { ExchangeRecord } from "@/lib/store";
import { timelinePositions } from "@/lib/view";

/** The run-level facts (policy model, capture expected) are left out: lib/health adds them. */
export function severityOf(
  input: SeverityInput,
): Pick<RolloutSummary, "severity" | "severity_reasons"> {
  const result = classifySeverity(input);
  return {
    severity: result.severity,
    severity_reasons: result.reasons.map((r) => ({ code: r.code, title: r.title })),
  };
}

/**
 * Calls numbered as the inspector's timeline numbers them (lib/view/timeline/positions): captured
 * calls by created_at then line, each exchange without a token entry after the call created last
 * before it started. `cut` is the timeline's last call when it failed: the agent stopped after it.
 */
export function timelineFacts(
  entries: readonly TokenEntry[],
  lines: readonly number[],
  withoutEntry: readonly ExchangeRecord[],
) {
  const order = entries.map((e, k) => ({
    model_call_id: e.model_call_id,
    created_at: e.created_at,
    line: lines[k] ?? k + 1,
  }));
  order.sort((a, b) => a.created_at - b.created_at || a.line - b.line);
  const placed = withoutEntry.map(({ exchange: x }) => {
    // Binary search: the last call with created_at <= started_at.
    let [lo, hi, after] = [0, order.length - 1, null as string | null];
    while (x.started_at !== null && lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = order[mid] as (typeof order)[number];
      if (c.created_at <= x.started_at) [after, lo] = [c.model_call_id, mid + 1];
      else hi = mid - 1;
    }
    return { x, model_call_id: x.model_call_id, after_call: after };
  });
  placed.sort((a, b) => (a.x.started_at ?? 0) - (b.x.started_at ?? 0));
  const positions = timelinePositions(order, placed);
  const total = positions.size;
  let cut: { x: ExchangeRecord["exchange"]; fact: FailedCallFact } | null = null;
  for (const { x } of placed) {
    const position = positions.get(x.model_call_id) ?? 0;
    if (position === total && isFailedExchange(x))
      cut = { x, fact: failedCallFromExchange(x, position) };
  }
  return { total, cut };
}
