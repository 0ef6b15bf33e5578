// Call rows for call-timeline tests: a policy call with plain lengths, an exchange that succeeded,
// an extra_forbidden failed call and a linear main chain, so each test states only what it is about; and the
// rows read back as ids or id@depth.
import type { CallView, ExchangeSummary, FailedCall } from "@/lib/schema/api-rollout";
import type { TimelineRow } from "@/lib/view/timeline/rows";
import { callView, failedCall } from "./rollout-view";

export const call = (id: string, parent: string | null, over: Partial<CallView> = {}): CallView =>
  callView({
    requested_model: "policy",
    prompt_len: 10,
    generated_len: 5,
    ...over,
    model_call_id: id,
    parent_call_id: parent,
  });

export const exchange = (over: Partial<ExchangeSummary> = {}): ExchangeSummary => ({
  ...{ status_code: 200, error_category: null, latency_ms: 1000, finish_reason: "stop" },
  ...{ started_at: null, served_model: "policy-served", count: 1 },
  ...over,
});

export const failed = (
  id: string,
  after: string | null,
  over: Partial<FailedCall> = {},
): FailedCall =>
  failedCall({
    started_at: null,
    error_category: "extra_forbidden",
    latency_ms: 30,
    error: "Extra inputs are not permitted at messages[2].reasoning",
    ...over,
    model_call_id: id,
    after_call: after,
  });

/** A linear main chain c0 → c1 → … with created_at 1, 2, 3, … */
export function linear(n: number, prefix = "c"): CallView[] {
  return Array.from({ length: n }, (_, i) =>
    call(`${prefix}${i}`, i === 0 ? null : `${prefix}${i - 1}`, { created_at: i + 1 }),
  );
}

export const depths = (rows: readonly TimelineRow[]) => rows.map((r) => `${r.call_id}@${r.depth}`);
export const ids = (rows: readonly TimelineRow[]) => rows.map((r) => r.call_id);
