// Train/inference mismatch of NeMo-RL samples, as NeMo-RL computes it (ClippedPGLossFn): log prob t
// belongs to token t, position 0 is dropped, the mask is token_loss_mask × sample_loss_mask, and a
// token's error is exp(|generation − prev|). A sample's value is the mean over its masked tokens
// (the sequence multiplicative probability error); a step's `token_mult_prob_error` is the mean over
// every masked token of the step (token-normalised, not a mean of sample means). Pure.

/**
 * NeMo-RL's model guide (docs/adding-new-models.md): a `token_mult_prob_error` above 1.05 between
 * backends of equal precision "requires further investigation".
 */
export const INVESTIGATE_ABOVE = 1.05;

/**
 * `grpo.seq_logprob_error_threshold` as NeMo-Gym's GRPO recipes set it (grpo_nanov3, Nemotron 3
 * Super): NeMo-RL leaves a sample whose sequence error exceeds it out of the loss.
 */
export const SEQUENCE_GATE = 2;

export interface MismatchInput {
  tokenLossMask: readonly number[] | null;
  sampleLossMask: number | null;
  generationLogprobs: readonly number[] | null;
  prevLogprobs: readonly number[] | null;
}

export interface SampleMismatch {
  /** Sum of exp(|gen − prev|) over the masked tokens, and how many there are. */
  sum: number;
  maskedTokens: number;
  /** sum / maskedTokens; null when no token is masked in (NeMo-RL leaves such a sample out). */
  mean: number | null;
  /** The worst masked token: its position in the sample and its error. */
  maxPos: number | null;
  max: number | null;
}

/** One masked token's error: exp(|gen − prev| × mask), the mask being non-zero. */
export const tokenError = (gen: number, prev: number, mask: number): number =>
  Math.exp(Math.abs(gen - prev) * mask);

/** exp(|gen − prev|) at each position (0 where the mask leaves it out, and at position 0). */
export function tokenErrors(s: MismatchInput): Float64Array {
  const gen = s.generationLogprobs;
  const prev = s.prevLogprobs;
  const mask = s.tokenLossMask;
  const n = Math.min(gen?.length ?? 0, prev?.length ?? 0, mask?.length ?? 0);
  const out = new Float64Array(n);
  if (!gen || !prev || !mask) return out;
  const sampleMask = s.sampleLossMask ?? 1;
  for (let t = 1; t < n; t++) {
    const m = (mask[t] as number) * sampleMask;
    if (m !== 0) out[t] = tokenError(gen[t] as number, prev[t] as number, m);
  }
  return out;
}

export function sampleMismatch(s: MismatchInput): SampleMismatch | null {
  if (!s.generationLogprobs || !s.prevLogprobs || !s.tokenLossMask) return null;
  const errors = tokenErrors(s);
  const sampleMask = s.sampleLossMask ?? 1;
  let sum = 0;
  let masked = 0;
  let maxPos: number | null = null;
  let max: number | null = null;
  for (let t = 1; t < errors.length; t++) {
    const m = (s.tokenLossMask[t] as number) * sampleMask;
    if (m === 0) continue;
    const e = errors[t] as number;
    sum += e * m;
    masked += m;
    if (max === null || e > max) [max, maxPos] = [e, t];
  }
  return { sum, maskedTokens: masked, mean: masked > 0 ? sum / masked : null, maxPos, max };
}

/** The step's `token_mult_prob_error`: every masked token of every sample weighs the same. */
export function stepMismatch(samples: ReadonlyArray<SampleMismatch | null>): number | null {
  let sum = 0;
  let masked = 0;
  for (const s of samples) {
    if (!s) continue;
    sum += s.sum;
    masked += s.maskedTokens;
  }
  return masked > 0 ? sum / masked : null;
}
