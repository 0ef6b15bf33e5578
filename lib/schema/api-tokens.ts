// The token routes' wire contract: columnar token windows (segments once per sequence) and
// low-prob matches. Inferred types only; strict objects, snake_case (see ./api-rollout).
import { z } from "zod";

const nullableString = z.string().nullable();
// --- token windows ------------------------------------------------------------------------------

export const segmentKindSchema = z.enum(["inherited", "prompt", "interstitial", "generated"]);
export const pieceKindSchema = z.enum(["text", "bytes", "special", "unknown"]);

export const tokenSegmentSchema = z.strictObject({
  call: z.string(),
  kind: segmentKindSchema,
  start: z.int(),
  length: z.int(),
});

/** A window of a sequence's tokens; the segments come once per sequence (`segmentedWindowSchema`). */
export const tokenWindowSchema = z.strictObject({
  sequence: z.string(),
  total: z.int(),
  offset: z.int(),
  decoded: z.boolean(),
  /** Columnar, one entry per token of the window. `call` indexes `call_ids`. */
  tokens: z.strictObject({
    id: z.array(z.int()),
    text: z.array(z.string()).nullable(),
    piece: z.array(pieceKindSchema).nullable(),
    mask: z.array(z.int()),
    log_prob: z.array(z.number().nullable()),
    call: z.array(z.int()),
  }),
  call_ids: z.array(z.string()),
});

/** The window that opens a sequence (`segments=1`, or shipped in the page): with every segment. */
export const segmentedWindowSchema = tokenWindowSchema.extend({
  segments: z.array(tokenSegmentSchema),
});

export const lowProbMatchesSchema = z.strictObject({
  sequence: z.string(),
  threshold: z.number(),
  total: z.int(),
  matches: z.array(
    z.strictObject({
      pos: z.int(),
      id: z.int(),
      text: nullableString,
      log_prob: z.number(),
      call: z.string(),
    }),
  ),
});

export type SegmentKind = z.infer<typeof segmentKindSchema>;
export type PieceKind = z.infer<typeof pieceKindSchema>;
export type TokenSegment = z.infer<typeof tokenSegmentSchema>;
export type TokenWindow = z.infer<typeof tokenWindowSchema>;
export type SegmentedWindow = z.infer<typeof segmentedWindowSchema>;
export type LowProbMatches = z.infer<typeof lowProbMatchesSchema>;
