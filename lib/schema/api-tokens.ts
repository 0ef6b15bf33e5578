// The token routes' wire contract: columnar token windows (segments once per sequence) and
// low-prob matches. Inferred types only; strict objects, snake_case (see ./api-rollout).
import { z } from "zod";

const nullableString = z.string().nullable();
// --- token windows ------------------------------------------------------------------------------

export const segmentKindSchema = z.enum(["inherited", "prompt", "interstitial", "generated"]);
export const pieceKindSchema = z.enum(["text", "bytes", "special", "unknown"]);
/** A window token's piece: a decoded kind, or `outside` for an id outside 0 … 2^31−1. */
export const windowPieceSchema = z.enum([...pieceKindSchema.options, "outside"]);

/** What the `id` column holds for an id outside 0 … 2^31−1 (its digits are in `outside`). */
export const OUTSIDE_TOKEN_ID = -0x80000000;
/** An id's exact decimal digits; null past 2^53 when the reader did not keep the file's text. */
const idDigits = z
  .string()
  .regex(/^-?\d+$/)
  .nullable();

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
  /**
   * Columnar, one entry per token of the window. `call` indexes `call_ids`. Gym trains on ids outside
   * 0 … 2^31−1: such a token's `id` is OUTSIDE_TOKEN_ID, its piece `outside`, its text says so with
   * its digits, and `outside` lists [its index in these columns, its exact digits]. `text` and
   * `piece` are null columns when nothing is decoded and no id is outside; without a tokenizer only
   * the outside ids have text.
   */
  tokens: z.strictObject({
    id: z.array(z.int()),
    text: z.array(z.string().nullable()).nullable(),
    piece: z.array(windowPieceSchema.nullable()).nullable(),
    mask: z.array(z.int()),
    log_prob: z.array(z.number().nullable()),
    call: z.array(z.int()),
    outside: z.array(z.tuple([z.int(), idDigits])),
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
export type WindowPiece = z.infer<typeof windowPieceSchema>;
export type TokenSegment = z.infer<typeof tokenSegmentSchema>;
export type TokenWindow = z.infer<typeof tokenWindowSchema>;
export type SegmentedWindow = z.infer<typeof segmentedWindowSchema>;
export type LowProbMatches = z.infer<typeof lowProbMatchesSchema>;
