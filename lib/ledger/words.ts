// The signal ledger's totals in words (docs/ledger.md): the share of the generated tokens that
// reached the gradient, over the steps where that is known, and the largest loss by name.
import type { LedgerStep, RunLedger } from "@/lib/schema";
import { plural } from "@/lib/text";
import { STEPLESS_WORDS, unknownStages } from "@/lib/view";

/** Each loss's name as the page and the sentence say it. */
export const LOSS_WORDS = {
  side_calls: "side calls",
  retries_dropped: "dropped retries",
  quarantined: "quarantine",
  branches: "branches",
  masked: "masked rollouts",
  outside_loss_mask: "outside the loss mask",
  equal_reward: "no advantage",
} as const;
export type LossName = keyof typeof LOSS_WORDS;

export interface LedgerLosses {
  /** Captured tokens of the steps counted (the denominator). */
  of: number;
  /** What reached the last known stage. */
  reached: number;
  stage: "delivered" | "in_loss_mask" | "with_advantage";
  losses: Array<[LossName, number]>;
}

/**
 * Every loss in tokens: over the steps whose trainer stages are known when any are (the rest
 * cannot say what reached the gradient), else over every step up to delivery.
 */
export function lossesOf(steps: readonly LedgerStep[]): LedgerLosses {
  const known = steps.filter((s) => s.in_loss_mask !== null);
  const use = known.length > 0 ? known : steps;
  const sum = (f: (s: LedgerStep) => number) => use.reduce((a, s) => a + f(s), 0);
  const losses: Array<[LossName, number]> = [
    ["side_calls", sum((s) => s.losses.side_calls)],
    ["retries_dropped", sum((s) => s.losses.retries_dropped)],
    ["quarantined", sum((s) => s.losses.quarantined)],
    ["branches", sum((s) => s.losses.branches)],
    ["masked", sum((s) => s.losses.masked)],
  ];
  const of = sum((s) => s.captured);
  if (known.length === 0)
    return { of, reached: sum((s) => s.delivered), stage: "delivered", losses };
  const inLoss = sum((s) => s.in_loss_mask ?? 0);
  losses.push(["outside_loss_mask", Math.max(0, sum((s) => s.delivered) - inLoss)]);
  if (use.some((s) => s.with_advantage === null))
    return { of, reached: inLoss, stage: "in_loss_mask", losses };
  const adv = sum((s) => s.with_advantage ?? 0);
  losses.push(["equal_reward", Math.max(0, inLoss - adv)]);
  return { of, reached: adv, stage: "with_advantage", losses };
}

const pct = (n: number, of: number) => `${of > 0 ? Math.round((100 * n) / of) : 0}%`;

const REACHED = {
  delivered: "were delivered on main chains",
  in_loss_mask: "reached the trainer's loss mask",
  with_advantage: "reached the gradient",
} as const;

/** No loss found says how far it was looked for: past the stages known, a loss may still be. */
const NOTHING_LOST = {
  delivered: "nothing was lost before delivery",
  in_loss_mask: "nothing was lost before the loss mask",
  with_advantage: "nothing was lost",
} as const;

export function ledgerSentence(
  steps: readonly LedgerStep[],
  equal: RunLedger["equal_reward"] = null,
): string {
  const l = lossesOf(steps);
  if (l.of === 0) return "No generated tokens were captured (or none is summarised yet).";
  const largest = l.losses.reduce((a, b) => (b[1] > a[1] ? b : a));
  const loss =
    largest[1] > 0
      ? `the largest loss is ${LOSS_WORDS[largest[0]]}, ${pct(largest[1], l.of)}`
      : NOTHING_LOST[l.stage];
  const head = `${pct(l.reached, l.of)} of the generated tokens you paid for ${REACHED[l.stage]}${scopeOf(steps, l)}; ${loss}.`;
  const notes = [
    trainerNote(steps, l.stage),
    beyondNote(steps),
    equalNote(equal, l.stage),
    countedNote(steps),
  ];
  return [head, ...notes].filter((x) => x).join(" ");
}

/** The trainer's loss-mask tokens past what the capture delivered, which no share counts. */
function beyondNote(steps: readonly LedgerStep[]): string {
  const n = steps.reduce((a, s) => a + (s.beyond_delivered ?? 0), 0);
  if (n === 0) return "";
  const tokens = plural(n, "token", "tokens", n.toLocaleString("en-US"));
  return `The trainer's loss mask also holds ${tokens} past those the capture delivered (samples whose loss mask differs: the trainer truth check), counted in no share here.`;
}

/** Where the share stops short of the gradient: the tokens that no GRPO baseline gives advantage. */
function equalNote(equal: RunLedger["equal_reward"], stage: LedgerLosses["stage"]): string {
  if (equal === null || equal.delivered === 0) return "";
  const n = equal.delivered.toLocaleString("en-US");
  const share = pct(equal.delivered, equal.of);
  const of = plural(equal.rollouts, "rollout", "rollouts", equal.rollouts.toLocaleString("en-US"));
  const head =
    stage === "with_advantage"
      ? `In the steps without one, ${n} delivered tokens (${share} of theirs), of ${of},`
      : `${n} delivered tokens (${share}), of ${of},`;
  return `${head} are in GRPO groups whose rewards are all equal: no baseline gives them an advantage.`;
}

/** Which tokens the shares are of, when only some steps' trainer stages are known. */
function scopeOf(steps: readonly LedgerStep[], l: LedgerLosses): string {
  if (l.stage === "delivered") return "";
  const known = steps.filter((s) => s.in_loss_mask !== null).length;
  if (known === steps.filter((s) => s.captured > 0).length) return "";
  const k = known === 1 ? "the 1 step" : `the ${known} steps`;
  // The legend below gives the whole run's shares: this one's is said too, so the two agree.
  const all = steps.reduce((a, s) => a + s.captured, 0);
  const whole = `${pct(l.reached, all)} of the whole run's ${all.toLocaleString("en-US")}`;
  return ` (of ${l.of.toLocaleString("en-US")} tokens, in ${k} with a train_data_step file; ${whole})`;
}

function trainerNote(steps: readonly LedgerStep[], stage: LedgerLosses["stage"]): string {
  if (stage === "delivered")
    return "The trainer's loss mask is unknown (no train_data_step files).";
  const u = unknownStages(steps);
  if (u.steps === 0 && !u.stepless) return "";
  const tokens = u.tokens.toLocaleString("en-US");
  const parts = [
    u.steps === 0
      ? null
      : u.steps === 1
        ? "the 1 step without one"
        : `the ${u.steps} steps without one`,
    u.stepless ? STEPLESS_WORDS : null,
  ].filter((x) => x !== null);
  const rest = parts.join(" and ");
  const one = parts.length === 1 && u.steps === 1;
  return `${rest.charAt(0).toUpperCase()}${rest.slice(1)} (${tokens} tokens) ${one ? "is" : "are"} not counted: the trainer's stages are unknown there.`;
}

/** Rollouts without a token store read (records alone, or not summarised yet) are not counted. */
function countedNote(steps: readonly LedgerStep[]): string {
  const all = steps.reduce((a, s) => a + s.rollouts, 0);
  const counted = steps.reduce((a, s) => a + s.counted, 0);
  if (counted === all) return "";
  return `Counted over the ${counted.toLocaleString("en-US")} of ${all.toLocaleString("en-US")} rollouts whose token store was read.`;
}
