// The call-detail route's wire contract: one call's row, its exchanges and its prompt split into
// inherited prefix and interstitial. Inferred types only; strict objects, snake_case.
import { z } from "zod";
import { callViewSchema } from "./api-rollout";

const nullableInt = z.int().nullable();
const nullableNumber = z.number().nullable();
const nullableString = z.string().nullable();
// --- call detail --------------------------------------------------------------------------------

/** One recorded exchange of a call: line in the capture file, status, timing, the failure's body. */
export const callExchangeSchema = z.strictObject({
  line: z.int(),
  status_code: nullableInt,
  error_category: nullableString,
  latency_ms: nullableNumber,
  started_at: nullableNumber,
  finish_reason: nullableString,
  served_model: nullableString,
  /** The response body of a failed exchange (HTTP >= 400 or no status), as the server sent it. */
  error_body: z.record(z.string(), z.unknown()).nullable(),
});

export const callDetailSchema = z.strictObject({
  model_call_id: z.string(),
  /** The call's row in the rollout view (null for a failed call with no token entry). */
  call: callViewSchema.nullable(),
  /** The Responses API output items of the call's entry (reasoning, messages, tool calls). */
  output_items: z.array(z.record(z.string(), z.unknown())),
  exchanges: z.array(callExchangeSchema),
  prompt: z
    .strictObject({
      inherited_len: z.int(),
      interstitial_len: z.int(),
      /** Text of the last tokens of the inherited prefix (where the interstitial attaches). */
      inherited_tail: nullableString,
      interstitial: nullableString,
      interstitial_truncated: z.boolean(),
    })
    .nullable(),
  generation: nullableString,
});

export type CallExchange = z.infer<typeof callExchangeSchema>;
export type CallDetail = z.infer<typeof callDetailSchema>;
