// GRPO groups of a run's rollout records: the rollouts of one task (or any scalar record field) in
// one step, with their rewards, spread, each rollout's advantage as NeMo-RL computes it, and
// whether the group carries no training signal (all rewards equal: every advantage is 0). Per
// step: how many groups, how many without signal. Pure. lib/index/groups-sql answers a query from the
// summary index's records table; the same over records in memory, the tests' reference, is
// lib/testing/groups-reference.
import { z } from "zod";
import { InvalidInputError } from "@/lib/errors";
import {
  baselineKindSchema,
  type BaselineKind,
  type FieldValue,
  type RolloutGroup,
} from "@/lib/schema";
import { compareIds } from "@/lib/store/pure";

/** Gym's task index: a GRPO group is one task's rollouts in one step. */
export const DEFAULT_GROUP_FIELD = "_ng_task_index";
/** NeMo-RL's epsilon in `advantage / (std + epsilon)`. */
export const EPSILON = 1e-6;
export const ADVANTAGE_SOURCE =
  "NeMo-RL GRPOAdvantageEstimator (nemo_rl/algorithms/advantage_estimator.py) with " +
  "calculate_baseline_and_std_per_prompt (nemo_rl/algorithms/utils.py); defaults " +
  "use_leave_one_out_baseline: true, normalize_rewards: true";

export interface AdvantageOptions {
  /** leave_one_out: the mean of the other rollouts' rewards (RLOO); group_mean: of all. */
  baseline: BaselineKind;
  /** Divide by the (leave-one-out) sample std + EPSILON where that std is > 0. */
  normalize: boolean;
}

/**
 * Each reward's advantage as NeMo-RL's GRPO estimator gives it; null where `votes[i]` is false
 * (no reward, or masked: NeMo-RL's valid_mask keeps such rows out of their siblings' baselines).
 * With fewer than two voting rewards, or all of them exactly equal, every advantage is exactly 0
 * (NeMo-RL sets the baseline to the reward; summing floats could leave a 1e-17 residue instead).
 * The std beside a baseline is the sample std (÷ m − 1) of the m rewards the baseline averages;
 * none (0) for m ≤ 1, where NeMo-RL's 0 · ∞ turns to NaN and then 0.
 */
export function grpoAdvantages(
  rewards: ReadonlyArray<number | null>,
  votes: readonly boolean[],
  opts: AdvantageOptions,
): Array<number | null> {
  const voting: Array<[index: number, reward: number]> = [];
  rewards.forEach((r, i) => {
    if (r !== null && votes[i]) voting.push([i, r]);
  });
  const out: Array<number | null> = rewards.map(() => null);
  const values = voting.map(([, r]) => r);
  if (values.length < 2 || allEqual(values)) {
    for (const [i] of voting) out[i] = 0;
    return out;
  }
  let sum = 0,
    sumSq = 0;
  for (const v of values) {
    sum += v;
    sumSq += v * v;
  }
  const loo = opts.baseline === "leave_one_out";
  const m = loo ? values.length - 1 : values.length;
  for (const [i, r] of voting) {
    const base = (loo ? sum - r : sum) / m;
    const meanSq = (loo ? sumSq - r * r : sumSq) / m;
    const std = m > 1 ? Math.sqrt(Math.max(0, ((meanSq - base * base) * m) / (m - 1))) : 0;
    const adv = r - base;
    out[i] = opts.normalize && std > 0 ? adv / (std + EPSILON) : adv;
  }
  return out;
}

/** Exactly equal as parsed from JSON (float64 ===): 0.1 and 0.1000001 differ, and NeMo-RL's
 * normalisation would turn even that difference into a full ±advantage. */
function allEqual(values: readonly number[]): boolean {
  return values.every((v) => v === values[0]);
}

/** Mean, sample std (÷ n − 1; 0 for fewer than two), min and max; nulls for no values. */
export function spreadOf(values: readonly number[]) {
  if (values.length === 0) return { mean: null, std: null, min: null, max: null };
  const mean = values.reduce((a, v) => a + v, 0) / values.length;
  const ss = values.reduce((a, v) => a + (v - mean) ** 2, 0);
  const std = values.length > 1 ? Math.sqrt(ss / (values.length - 1)) : 0;
  // A loop, not Math.min(...values): a group by agent can hold more rollouts than arguments fit.
  let min = Infinity,
    max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { mean, std, min, max };
}

export interface Member {
  rollout_id: string;
  reward: number | null;
  masked: boolean;
}

/** One group: its members in id order, each with its advantage, and its reward spread. */
export function groupOf(
  key: FieldValue,
  step: number | null,
  members: Member[],
  opts: AdvantageOptions,
): RolloutGroup {
  members.sort((a, b) => compareIds(a.rollout_id, b.rollout_id));
  const votes = members.map((m) => !m.masked);
  const advantages = grpoAdvantages(
    members.map((m) => m.reward),
    votes,
    opts,
  );
  const rewards = members.flatMap((m, i) => (votes[i] && m.reward !== null ? [m.reward] : []));
  const group: RolloutGroup = {
    key,
    step,
    n: members.length,
    rewards,
    ...spreadOf(rewards),
    // No reward recorded at all: whether the trainer's rewards differed is not known here.
    no_signal: members.some((m) => m.reward !== null) && (rewards.length < 2 || allEqual(rewards)),
    members: members.map((m, i) => ({
      ...m,
      advantage: advantages[i] ?? null,
      logged_advantage: null,
    })),
  };
  return group;
}

export const groupsQuerySchema = z.object({
  by: z.string().min(1).max(200).optional(),
  baseline: baselineKindSchema.default("leave_one_out"),
  normalize: z
    .enum(["0", "1"])
    .default("1")
    .transform((v) => v === "1"),
  step: z.coerce.number().int().optional(),
  /** none: only groups without signal; some: only groups with. */
  signal: z.enum(["none", "some"]).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(5000).default(500),
});
export type GroupsQuery = z.infer<typeof groupsQuerySchema>;

/** The advantage options of `params` (`baseline`, `normalize`), the groups route's defaults else. */
export function parseAdvantageRule(params: URLSearchParams): AdvantageOptions {
  const only = [...params].filter(([k]) => k === "baseline" || k === "normalize");
  const q = parseGroupsQuery(new URLSearchParams(only));
  return { baseline: q.baseline, normalize: q.normalize };
}

export function parseGroupsQuery(params: URLSearchParams): GroupsQuery {
  const raw = Object.fromEntries([...params].filter(([, v]) => v !== ""));
  const parsed = groupsQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidInputError(
      `${issue?.path.join(".") || "query"}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}
