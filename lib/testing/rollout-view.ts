// Typed test builders for the inspector's wire types: a call row or failed call with every field
// set to a plain default, so view tests state only the fields they are about (no casts).
import type { CallView, FailedCall } from "@/lib/schema/api-rollout";

/** A main-chain call with no exchange; `parent_call_id` null makes it a root. */
export function callView(fields: Partial<CallView> & Pick<CallView, "model_call_id">): CallView {
  const parent = fields.parent_call_id ?? null;
  return {
    line: 1,
    parent_call_id: parent,
    link: parent === null ? "root" : "inferred",
    fallback: null,
    recorded_parent: null,
    candidates: [],
    role: "main",
    chains: ["main"],
    retry: null,
    retry_group: null,
    quarantine: null,
    side_call: null,
    excluded_reason: null,
    requested_model: null,
    model: "policy",
    prompt_len: 0,
    generated_len: 0,
    inherited_len: 0,
    interstitial_len: 0,
    created_at: 0,
    exchange: null,
    ...fields,
  };
}

/** A 422 with no token entry, placed after `after_call`. */
export function failedCall(
  fields: Partial<FailedCall> & Pick<FailedCall, "model_call_id">,
): FailedCall {
  return {
    started_at: 0,
    status_code: 422,
    error_category: "client_error",
    latency_ms: 1,
    after_call: null,
    error: "x",
    position: 2,
    error_type: "extra_forbidden",
    location: "messages[2].reasoning",
    message: "Extra inputs are not permitted",
    ...fields,
  };
}
