// The experts route's wire contract (docs/experts.md): per position of a window of a sequence, the
// routed experts [layer][k] from the call that added the token, or null (no routes, a fallback
// route, a missing row). Inferred types only; strict objects, snake_case (see ./api-rollout).
import { z } from "zod";

export const expertsWindowSchema = z.strictObject({
  sequence: z.string(),
  /** Tokens in the whole sequence, as the tokens route counts them. */
  total: z.int(),
  offset: z.int(),
  /** Whether any call of the sequence carries routes; false means every position is null. */
  routed: z.boolean(),
  /** The widest routes of the window's calls (MoE layers, experts per token), 0 without routes. */
  layers: z.int(),
  topk: z.int(),
  /** One per position of the window: [layer][k] expert indices, or null. */
  experts: z.array(z.array(z.array(z.int())).nullable()),
  /** One per position: index into `call_ids` of the call that added the token. */
  call: z.array(z.int()),
  call_ids: z.array(z.string()),
});

export type ExpertsWindow = z.infer<typeof expertsWindowSchema>;
