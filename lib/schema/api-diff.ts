// The diff route's wire contract (`/api/diff?a=RUN/ROLLOUT&b=RUN/ROLLOUT`): two rollouts' chains
// compared, each side's verdict, reward and GRPO advantage, the first token position where their
// ids differ with the text around it, the messages aligned (runs of equal messages folded into one
// row), and with `message=K` the token-level diff inside changed row K. Strict objects, snake_case.
import { z } from "zod";
import { advantageRuleSchema, fieldValueSchema } from "./api-groups";
import { profileSchema, severityStateSchema } from "./api-runs";

const int = z.int();

export const diffSideSchema = z.strictObject({
  run: z.string(),
  rollout: z.string(),
  profile: profileSchema,
  /** The tokenizer the side's text was decoded with; null: text is the ids. */
  tokenizer: z.string().nullable(),
  /** Tokens and messages in the side's chain. */
  length: int,
  messages: int,
  severity: severityStateSchema,
  /** The verdict's sentences (lib/severity bannerSentences). */
  verdict: z.array(z.string()),
  reward: z.number().nullable(),
  /**
   * The rollout's GRPO advantage in its group (lib/runs grpoAdvantages, the groups route's default
   * rule: leave-one-out, normalised); null outside a group.
   */
  advantage: z.number().nullable(),
  /** The rule `advantage` was computed with (the groups view's, carried by its diff link). */
  advantage_rule: advantageRuleSchema,
  /** The advantage the trainer logged for its sample (lib/trainer loggedAdvantages); null: none. */
  logged_advantage: z.number().nullable(),
  /** Its group's key and step, and how many rollouts it holds (1: alone, no group to compare). */
  group: z.strictObject({ key: fieldValueSchema, step: int.nullable(), size: int }).nullable(),
});

/** Text around a token position: the tokens before it, its own text, and the tokens after it. */
export const diffContextSchema = z.strictObject({
  before: z.string(),
  token: z.string(),
  after: z.string(),
});

export const firstDivergenceSchema = z.strictObject({
  position: int,
  a: diffContextSchema,
  b: diffContextSchema,
  /** The row holding the position on each side (null past the side's last message). */
  row: int.nullable(),
});

/** One side's message in a row: its role, token range and first words. */
export const diffMessageSchema = z.strictObject({
  index: int,
  role: z.string(),
  start: int,
  end: int,
  preview: z.string(),
});

export const diffRowSchema = z.strictObject({
  index: int,
  kind: z.enum(["same", "changed", "only_a", "only_b"]),
  /** Equal messages in a row of kind "same" (folded); 1 otherwise. */
  count: int,
  a: diffMessageSchema.nullable(),
  b: diffMessageSchema.nullable(),
});

export const tokenOpSchema = z.strictObject({
  kind: z.enum(["same", "removed", "added"]),
  /** Positions in each side's chain where the run starts. */
  a: int,
  b: int,
  length: int,
  /** The run's text (clipped for long "same" runs, `clipped` says so). */
  text: z.string(),
  clipped: z.boolean(),
});

export const tokenDiffSchema = z.strictObject({
  row: int,
  /** Null with a note when the pair is too long or too different for a bounded diff. */
  ops: z.array(tokenOpSchema).nullable(),
  note: z.string().nullable(),
});

export const MAX_DIFF_ROWS = 3_000;

export const rolloutDiffSchema = z.strictObject({
  chain: z.string(),
  a: diffSideSchema,
  b: diffSideSchema,
  /** Null when the two chains' ids are identical. */
  first_divergence: firstDivergenceSchema.nullable(),
  /** False: too many edits to align, messages paired by position. */
  aligned: z.boolean(),
  counts: z.strictObject({ same: int, changed: int, only_a: int, only_b: int }),
  /**
   * The rows in order, at most MAX_DIFF_ROWS of them (`rows_total` counts them all); with
   * `message=K`, row K alone, its messages without previews.
   */
  rows: z.array(diffRowSchema),
  rows_total: int,
  token_diff: tokenDiffSchema.nullable(),
});

export type DiffSide = z.infer<typeof diffSideSchema>;
export type DiffContext = z.infer<typeof diffContextSchema>;
export type FirstDivergence = z.infer<typeof firstDivergenceSchema>;
export type DiffMessage = z.infer<typeof diffMessageSchema>;
export type DiffRow = z.infer<typeof diffRowSchema>;
export type TokenDiffAnswer = z.infer<typeof tokenDiffSchema>;
export type RolloutDiff = z.infer<typeof rolloutDiffSchema>;
