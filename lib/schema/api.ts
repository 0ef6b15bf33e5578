// Responses of the routes the browser pages through (token windows, low-prob matches, call
// detail): the one contract the server produces and the client parses at the fetch boundary.
import { z } from "zod";

export const segmentKindSchema = z.enum(["inherited", "prompt", "interstitial", "generated"]);
export const pieceKindSchema = z.enum(["text", "bytes", "special", "unknown"]);

export const tokenSegmentSchema = z.object({
  call: z.string(),
  kind: segmentKindSchema,
  start: z.int(),
  length: z.int(),
});

export const tokenWindowSchema = z.object({
  sequence: z.string(),
  total: z.int(),
  offset: z.int(),
  segments: z.array(tokenSegmentSchema),
  decoded: z.boolean(),
  /** Columnar, one entry per token of the window. `call` indexes `call_ids`. */
  tokens: z.object({
    id: z.array(z.int()),
    text: z.array(z.string()).nullable(),
    piece: z.array(pieceKindSchema).nullable(),
    mask: z.array(z.int()),
    log_prob: z.array(z.number().nullable()),
    call: z.array(z.int()),
  }),
  call_ids: z.array(z.string()),
});

export const lowProbMatchesSchema = z.object({
  sequence: z.string(),
  threshold: z.number(),
  total: z.int(),
  matches: z.array(z.object({ pos: z.int(), id: z.int(), text: z.string().nullable(), log_prob: z.number(), call: z.string() })),
});

export const callDetailSchema = z.object({
  model_call_id: z.string(),
  /** The call's row in the rollout view (null for a failed call with no token entry). */
  call: z.looseObject({ model_call_id: z.string() }).nullable(),
  output_items: z.array(z.unknown()),
  exchanges: z.array(z.object({ line: z.int(), exchange: z.looseObject({ model_call_id: z.string() }) })),
  prompt: z
    .object({
      inherited_len: z.int(),
      interstitial_len: z.int(),
      inherited_tail: z.string().nullable(),
      interstitial: z.string().nullable(),
      interstitial_truncated: z.boolean(),
    })
    .nullable(),
  generation: z.string().nullable(),
});

export const apiErrorSchema = z.object({ error: z.string() });

export type SegmentKind = z.infer<typeof segmentKindSchema>;
export type PieceKind = z.infer<typeof pieceKindSchema>;
export type TokenSegment = z.infer<typeof tokenSegmentSchema>;
export type TokenWindow = z.infer<typeof tokenWindowSchema>;
export type LowProbMatches = z.infer<typeof lowProbMatchesSchema>;

/** A page of the rollouts table; rows are the server's RolloutSummary (lib/runs/summarize). */
export const rolloutPageSchema = z.object({
  total: z.int(),
  all: z.int(),
  offset: z.int(),
  rollouts: z.array(z.looseObject({ rollout_id: z.string(), mask_sample: z.boolean() })),
});

/** The health route's envelope (lib/runs/run-health): identity, counts and index progress are checked. */
export const runHealthSchema = z.looseObject({
  run_id: z.string(),
  rollouts: z.int(),
  masked: z.int(),
  progress: z.looseObject({ done: z.int(), total: z.int(), running: z.boolean() }),
  alerts: z.array(z.looseObject({ kind: z.string(), message: z.string() })),
});
