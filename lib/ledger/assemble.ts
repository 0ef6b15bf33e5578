// The signal ledger of a run from its parts (docs/ledger.md): each step's sums from the summary
// index, the trainer's samples joined to their rollouts (loss-mask tokens), and each rollout's
// group signal. Pure: reading is ./run-ledger's. A stage the run's files cannot tell is null
// (unknown), never 0.
import { DEFAULT_GROUP_FIELD } from "@/lib/runs";
import type { EqualRewardSums, LedgerStepSums } from "@/lib/index";
import type { LedgerStep, LedgerTotals, RerenderedAt, RunLedger } from "@/lib/schema";
import { ledgerSentence, lossesOf } from "./words";

/** A trained sample as the truth check joined it (lib/trainer). */
export interface JoinedSample {
  record_step: number;
  rollout_id: string | null;
  class: "identical" | "mask_differs" | "tokens_differ" | "no_capture";
  loss_tokens: number | null;
  /** Loss-mask tokens whose logged advantage is not 0; null when the step file logs none. */
  advantage_tokens: number | null;
}

export interface LedgerInput {
  runId: string;
  sums: LedgerStepSums[];
  /** Record step → its train_data_step file's name. */
  stepFiles: ReadonlyMap<number, string>;
  samples: readonly JoinedSample[];
  /**
   * Rollout id → its group carries an advantage (null: its group has no reward recorded); null
   * when the run has no groups.
   */
  signal: ReadonlyMap<string, boolean | null> | null;
  /** Per step, the delivered tokens in groups whose rewards are all equal; null with no groups. */
  equal: readonly EqualRewardSums[] | null;
  rerendered: RerenderedAt[];
  issues: string[];
}

export const ADVANTAGE_RULE =
  "The trainer's own `advantages` where its step file logs them: the loss-mask tokens whose " +
  `advantage is not 0 count. Else GRPO groups by ${DEFAULT_GROUP_FIELD} and step (the groups ` +
  "route's default): a group carries an advantage when at least two unmasked rewards differ; its " +
  "loss-mask tokens count; with no reward in its records, the step's count is not known.";

export function assembleLedger(input: LedgerInput): RunLedger {
  // `unknown`: a sample had neither logged advantages nor a group to tell them by.
  const trained = new Map<number, { loss: number; adv: number; unknown: boolean }>();
  let noMask = 0;
  for (const s of input.samples) {
    // A sample the truth check could not join to a captured rollout is not a captured token.
    if (s.rollout_id === null || s.class === "no_capture") continue;
    if (s.loss_tokens === null) noMask++;
    const t = trained.get(s.record_step) ?? { loss: 0, adv: 0, unknown: false };
    t.loss += s.loss_tokens ?? 0;
    // What the trainer logged wins over what the rewards say it should have computed.
    if (s.advantage_tokens !== null) t.adv += s.advantage_tokens;
    else if (input.signal === null || input.signal.get(s.rollout_id) === null) t.unknown = true;
    else if (input.signal.get(s.rollout_id) === true) t.adv += s.loss_tokens ?? 0;
    trained.set(s.record_step, t);
  }
  const issues = [...input.issues];
  if (noMask > 0) issues.push(`${noMask} trained samples have no token_loss_mask: counted as 0`);
  const steps = input.sums.map((s): LedgerStep => {
    const file = s.step === null ? undefined : input.stepFiles.get(s.step);
    const t = s.step === null ? undefined : trained.get(s.step);
    const loss = file === undefined ? null : (t?.loss ?? 0);
    // A trainer's mask wider than the capture's can hold more than was delivered: set apart, so
    // each stage is at most the one before it and the step's parts add up to what it captured.
    const inLoss = loss === null ? null : Math.min(loss, s.delivered);
    return {
      step: s.step,
      rollouts: s.rollouts,
      counted: s.counted,
      captured: s.captured,
      losses: {
        side_calls: s.side_calls,
        retries_dropped: s.retries_dropped,
        quarantined: s.quarantined,
        branches: s.branches,
        masked: s.masked,
      },
      delivered: s.delivered,
      in_loss_mask: inLoss,
      with_advantage:
        inLoss === null || t?.unknown || (t === undefined && input.signal === null)
          ? null
          : Math.min(t?.adv ?? 0, inLoss),
      beyond_delivered: loss === null || inLoss === null ? null : loss - inLoss,
      step_file: file ?? null,
      calls: s.calls,
      rerendered: s.rerendered,
      rerendered_rollouts: s.rerendered_rollouts,
    };
  });
  const totals = totalsOf(steps);
  const equal = equalRewardOf(steps, input.equal);
  return {
    run_id: input.runId,
    steps,
    totals,
    sentence: ledgerSentence(steps, equal),
    equal_reward: equal,
    rerendered_sample: input.rerendered,
    advantage_rule: ADVANTAGE_RULE,
    group_field: DEFAULT_GROUP_FIELD,
    issues,
  };
}

/**
 * The equal-reward groups' delivered tokens over the steps whose advantage stage the sentence's
 * share leaves out (every step when it stops before the gradient; else those without a step file).
 */
function equalRewardOf(
  steps: readonly LedgerStep[],
  equal: readonly EqualRewardSums[] | null,
): RunLedger["equal_reward"] {
  if (equal === null) return null;
  const all = lossesOf(steps).stage !== "with_advantage";
  const left = steps.filter((s) => all || s.in_loss_mask === null);
  if (left.length === 0) return null;
  const wanted = new Set(left.map((s) => s.step));
  const sums = equal.filter((e) => wanted.has(e.step));
  return {
    delivered: sums.reduce((a, e) => a + e.delivered, 0),
    rollouts: sums.reduce((a, e) => a + e.rollouts, 0),
    of: left.reduce((a, s) => a + s.delivered, 0),
  };
}

function totalsOf(steps: readonly LedgerStep[]): LedgerTotals {
  const sum = (f: (s: LedgerStep) => number) => steps.reduce((a, s) => a + f(s), 0);
  const known = steps.filter((s) => s.in_loss_mask !== null);
  const advKnown = known.every((s) => s.with_advantage !== null);
  return {
    rollouts: sum((s) => s.rollouts),
    counted: sum((s) => s.counted),
    captured: sum((s) => s.captured),
    losses: {
      side_calls: sum((s) => s.losses.side_calls),
      retries_dropped: sum((s) => s.losses.retries_dropped),
      quarantined: sum((s) => s.losses.quarantined),
      branches: sum((s) => s.losses.branches),
      masked: sum((s) => s.losses.masked),
    },
    delivered: sum((s) => s.delivered),
    in_loss_mask: known.length ? known.reduce((a, s) => a + (s.in_loss_mask ?? 0), 0) : null,
    with_advantage:
      known.length && advKnown ? known.reduce((a, s) => a + (s.with_advantage ?? 0), 0) : null,
    beyond_delivered: known.length
      ? known.reduce((a, s) => a + (s.beyond_delivered ?? 0), 0)
      : null,
    captured_known: known.reduce((a, s) => a + s.captured, 0),
    delivered_known: known.reduce((a, s) => a + s.delivered, 0),
    calls: sum((s) => s.calls),
    rerendered: sum((s) => s.rerendered),
    rerendered_rollouts: sum((s) => s.rerendered_rollouts),
  };
}
