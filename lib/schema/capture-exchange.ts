// One line of `<rollout_id>.capture.jsonl` (model-call capture, docs/capture-format.md §9.2),
// plus the few derived fields the views show (§9.4). Unknown keys are kept.
import { z } from "zod";

export const captureExchangeSchema = z.looseObject({
  model_call_id: z.string().min(1),
  dialect: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  model_ref: z
    .looseObject({ type: z.string().optional(), name: z.string().optional() })
    .nullish()
    .transform((v) => v ?? null),
  started_at: z
    .number()
    .nullish()
    .transform((v) => v ?? null),
  completed_at: z
    .number()
    .nullish()
    .transform((v) => v ?? null),
  latency_ms: z
    .number()
    .nullish()
    .transform((v) => v ?? null),
  latency_ttft_ms: z
    .number()
    .nullish()
    .transform((v) => v ?? null),
  status_code: z
    .int()
    .nullish()
    .transform((v) => v ?? null),
  error_category: z
    .string()
    .nullish()
    .transform((v) => v ?? null),
  request: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((v) => v ?? null),
  response: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((v) => v ?? null),
  request_raw: z.string().optional(),
  response_raw: z.string().optional(),
  client_session_id: z.string().optional(),
});

export type CaptureExchange = z.infer<typeof captureExchangeSchema>;

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

function rec(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : null;
}

/** finish_reason per §9.4: Anthropic stop_reason, Chat choices[0].finish_reason, Responses incomplete_details.reason. */
export function finishReason(ex: CaptureExchange): string | null {
  const r = ex.response;
  if (!r) return null;
  const choices = Array.isArray(r.choices) ? r.choices : [];
  return (
    str(r.stop_reason) ??
    str(rec(choices[0])?.finish_reason) ??
    str(rec(r.incomplete_details)?.reason)
  );
}

/** Served model per §9.4: response.model, else request.model. */
export function servedModel(ex: CaptureExchange): string | null {
  return str(ex.response?.model) ?? str(ex.request?.model);
}

/** Requested model: what the harness asked for in the request body. */
export function requestedModel(ex: CaptureExchange): string | null {
  return str(ex.request?.model);
}
