// The truth check's core: joins one step's trained samples to the step's captured rollouts and
// classifies each pair. Rule: a sample joins the unclaimed rollout whose main chain equals its tokens
// (the one at the sample's `idx` among equals); otherwise the rollout sharing the longest token
// prefix (unclaimed first, then the one at its `idx`). Also which rollouts the joined samples say
// the trainer trained on otherwise. Pure; reading and decoding are truth-check's.
import type { TrainerDiffers, TruthSample } from "@/lib/schema";

export type TruthClass = "identical" | "mask_differs" | "tokens_differ" | "no_capture";

/** A rollout of the step, in rollouts.jsonl order (its place there is what `idx` points at). */
export interface TruthCandidate {
  rolloutId: string;
  agentName: string | null;
  /** The builder's projected main chain; null when the rollout has none (no token store, masked). */
  main: { token_ids: readonly number[]; loss_mask: readonly number[] } | null;
}

export interface TruthSampleInput {
  idx: number | null;
  agentName: string | null;
  tokenIds: readonly number[];
  tokenLossMask: readonly number[] | null;
  /** `sample_loss_mask`: 0 leaves the whole sample out of the loss, whatever its token mask. */
  sampleLossMask?: number | null;
}

export interface TruthJoin {
  rolloutId: string | null;
  cls: TruthClass;
  /** First position where the tokens differ (tokens_differ), or where the masks do (mask_differs). */
  firstDiff: number | null;
  /** Positions whose mask differs (mask_differs). */
  maskDiffs: number;
}

/** Length of the common prefix; equal to both lengths when the lists are equal. */
export function sharedPrefix(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

export function classifyPair(s: TruthSampleInput, c: TruthCandidate): TruthJoin {
  const main = c.main;
  if (!main) return { rolloutId: c.rolloutId, cls: "no_capture", firstDiff: null, maskDiffs: 0 };
  const shared = sharedPrefix(s.tokenIds, main.token_ids);
  if (shared < s.tokenIds.length || shared < main.token_ids.length)
    return { rolloutId: c.rolloutId, cls: "tokens_differ", firstDiff: shared, maskDiffs: 0 };
  let first: number | null = null;
  let diffs = 0;
  const mask = s.tokenLossMask;
  // The loss NeMo-RL computes weighs a token by token_loss_mask × sample_loss_mask.
  const out = s.sampleLossMask === 0;
  for (let t = 0; mask && t < mask.length; t++) {
    if ((!out && mask[t] !== 0 ? 1 : 0) === (main.loss_mask[t] !== 0 ? 1 : 0)) continue;
    first ??= t;
    diffs++;
  }
  const cls = diffs > 0 ? "mask_differs" : "identical";
  return { rolloutId: c.rolloutId, cls, firstDiff: first, maskDiffs: diffs };
}

const agentFits = (s: TruthSampleInput, c: TruthCandidate) =>
  s.agentName === null || c.agentName === null || s.agentName === c.agentName;

/** Joins and classifies every sample of one step (results in the samples' order). */
export function joinStep(
  samples: readonly TruthSampleInput[],
  candidates: readonly TruthCandidate[],
): TruthJoin[] {
  const claimed = new Set<number>();
  const byTokens = new Map<string, number[]>();
  candidates.forEach((c, i) => {
    if (!c.main) return;
    const key = c.main.token_ids.join(",");
    byTokens.set(key, [...(byTokens.get(key) ?? []), i]);
  });
  const out: Array<TruthJoin | null> = samples.map((s) => {
    const equal = (byTokens.get(s.tokenIds.join(",")) ?? []).filter(
      (i) => !claimed.has(i) && agentFits(s, candidates[i] as TruthCandidate),
    );
    if (equal.length === 0) return null;
    const pick = equal.includes(s.idx ?? -1) ? (s.idx as number) : (equal[0] as number);
    claimed.add(pick);
    return classifyPair(s, candidates[pick] as TruthCandidate);
  });
  return samples.map((s, k) => out[k] ?? nearest(s, candidates, claimed));
}

/** The sample's best rollout by shared prefix; no_capture when the step has no captured chain. */
function nearest(
  s: TruthSampleInput,
  candidates: readonly TruthCandidate[],
  claimed: Set<number>,
): TruthJoin {
  let best = -1;
  let bestScore: [number, number, number] = [-1, -1, -1];
  candidates.forEach((c, i) => {
    if (!c.main || !agentFits(s, c)) return;
    const score: [number, number, number] = [
      sharedPrefix(s.tokenIds, c.main.token_ids),
      claimed.has(i) ? 0 : 1,
      i === s.idx ? 1 : 0,
    ];
    if (isBetter(score, bestScore)) [best, bestScore] = [i, score];
  });
  if (best < 0) {
    const atIdx = s.idx !== null ? candidates[s.idx] : undefined;
    return {
      rolloutId: atIdx?.rolloutId ?? null,
      cls: "no_capture",
      firstDiff: null,
      maskDiffs: 0,
    };
  }
  claimed.add(best);
  return classifyPair(s, candidates[best] as TruthCandidate);
}

function isBetter(a: readonly number[], b: readonly number[]): boolean {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return (a[k] as number) > (b[k] as number);
  return false;
}

/**
 * Each rollout a differing sample joined, with that sample: tokens before the mask, then the
 * lowest step (samples come in step order). The verdict's evidence from the trainer's side.
 */
export function differsByRollout(samples: readonly TruthSample[]): Record<string, TrainerDiffers> {
  const out: Record<string, TrainerDiffers> = {};
  for (const s of samples) {
    if (s.rollout_id === null) continue;
    if (s.class !== "tokens_differ" && s.class !== "mask_differs") continue;
    const had = out[s.rollout_id];
    if (had && (had.class === "tokens_differ" || s.class === "mask_differs")) continue;
    const { step, record_step, line, first_diff, mask_diffs } = s;
    const left_out = s.class === "mask_differs" && s.loss_tokens === 0;
    out[s.rollout_id] = {
      step,
      record_step,
      line,
      class: s.class,
      first_diff,
      mask_diffs,
      left_out,
    };
  }
  return out;
}
