// GET /api/runs/{run}/ledger: where the generated tokens of each step went, from captured to the
// gradient (docs/ledger.md), and each step's share of calls whose prompt re-rendered an earlier turn.
import { z } from "zod";

const int = z.int();

/** Where a rollout's captured generated tokens were lost before delivery (docs/ledger.md). */
const lossesSchema = z.strictObject({
  side_calls: int,
  retries_dropped: int,
  quarantined: int,
  /** Kept calls off the main chain: other chains, and calls that end no chain. */
  branches: int,
  /** The main chain of a rollout that is not trained (masked, or no build). */
  masked: int,
});

/** A rollout's generated tokens, captured, each loss, and delivered: the parts add up. */
export const rolloutLedgerSchema = z.strictObject({
  captured: int,
  ...lossesSchema.shape,
  delivered: int,
});
export type RolloutLedger = z.infer<typeof rolloutLedgerSchema>;

/** The ledger's parts in order (captured, the losses, delivered): the index sums each. */
export const LEDGER_PARTS = rolloutLedgerSchema.keyof().options;

/** A rollout's calls, those whose prompt re-rendered an earlier turn, and the first (docs/ledger.md). */
export const spliceFactsSchema = z.strictObject({
  calls: int,
  rerendered: int,
  first: z
    .strictObject({ call_id: z.string(), chain: z.string().nullable(), position: int })
    .nullable(),
});

/** The parts a rollout's captured tokens split into before the trainer (the summary's `ledger`). */
export const LEDGER_LOSSES = lossesSchema.keyof().options;
export type LedgerLoss = (typeof LEDGER_LOSSES)[number];

/** The rollouts table's `ledger=` filter: rollouts with tokens in a part, or a re-rendered prompt. */
export const LEDGER_FILTERS = [...LEDGER_LOSSES, "delivered", "rerendered"] as const;
export type LedgerFilter = (typeof LEDGER_FILTERS)[number];

/** Where a rollout's first re-rendered prompt parts from the earlier turn. */
export const rerenderedAtSchema = z.strictObject({
  rollout_id: z.string(),
  call_id: z.string(),
  /** The chain the call starts (the inspector's `chain`), and the prompt's first differing token. */
  chain: z.string().nullable(),
  position: int,
});

/** The splice check's alert (lib/health/alerts/splice): prompts re-rendering an earlier turn. */
export const spliceAlertKindSchema = z.enum(["rerendered_prefixes"]);

export const ledgerStepSchema = z.strictObject({
  /** The records' step; null for rollouts without one. */
  step: int.nullable(),
  rollouts: int,
  /** Rollouts whose token store was read (the rest: records alone, or not yet summarised). */
  counted: int,
  captured: int,
  losses: lossesSchema,
  delivered: int,
  /** Null when the step has no train_data_step file: unknown, not zero. */
  in_loss_mask: int.nullable(),
  /** Loss-mask tokens in GRPO groups whose rewards differ; null when the loss mask is unknown. */
  with_advantage: int.nullable(),
  /**
   * The trainer's loss-mask tokens past the step's delivered ones (samples whose loss mask differs
   * from the capture's): set apart, so the stages above never hold more than was delivered. Null
   * when the loss mask is unknown.
   */
  beyond_delivered: int.nullable(),
  /** The trainer file's name, when the step has one. */
  step_file: z.string().nullable(),
  /** Calls (non-side) and those whose prompt re-rendered an earlier turn. */
  calls: int,
  rerendered: int,
  rerendered_rollouts: int,
});

export const ledgerTotalsSchema = ledgerStepSchema.omit({ step: true, step_file: true }).extend({
  /** Delivered tokens of the steps whose loss mask is known (the denominator of the next stages). */
  delivered_known: int,
  /** Captured tokens of the steps whose loss mask is known. */
  captured_known: int,
});

export const runLedgerSchema = z.strictObject({
  run_id: z.string(),
  steps: z.array(ledgerStepSchema),
  totals: ledgerTotalsSchema,
  /** The run totals in words: the share that reached the gradient and the largest loss. */
  sentence: z.string(),
  /** The first rollouts with a re-rendered prompt, each at its first one (the inspector's link). */
  rerendered_sample: z.array(rerenderedAtSchema),
  /**
   * Over the steps whose advantage stage the sentence's share leaves out: their delivered tokens
   * (`of`), and those (with their rollouts) in GRPO groups whose rewards are all equal, which no
   * baseline gives an advantage. Null when the run has no groups or every step's stage is known.
   */
  equal_reward: z.strictObject({ delivered: int, rollouts: int, of: int }).nullable(),
  /** How the advantage stage was decided (the groups route's grouping and rule). */
  advantage_rule: z.string(),
  /** The record field the advantage stage groups by (the groups view's `group=`). */
  group_field: z.string(),
  issues: z.array(z.string()),
});

export type LedgerStep = z.infer<typeof ledgerStepSchema>;
export type LedgerTotals = z.infer<typeof ledgerTotalsSchema>;
export type RerenderedAt = z.infer<typeof rerenderedAtSchema>;
export type RunLedger = z.infer<typeof runLedgerSchema>;
