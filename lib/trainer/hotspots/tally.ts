// Where train and inference disagree, summed over a run's trained samples: per token id and per
// position bucket, the count, sum and tail of each masked token's error (./mismatch's
// exp(|gen − prev|), docs/hotspots.md), and the worst occurrence. Pure: one sample at a time,
// tallies merge in any order. Turns and MoE layers need the capture: ./joined. Not responsible for
// reading, ranking or decoding.
import { INVESTIGATE_ABOVE, tokenError, type MismatchInput } from "../mismatch";
import { addDense, DENSE_LIMIT, denseSize, emptyDense, mergeDense, type DenseAccs } from "./dense";

/** A token's error above this is in the tail: NeMo-RL's own alarm for a mean error. */
export const TAIL_ERROR = INVESTIGATE_ABOVE;

export interface Occurrence {
  step: number;
  /** The step file's base name and the 1-based line of the sample. */
  file: string;
  line: number;
  /** The token's position in the sample (the chain's, for a sample the truth check joins). */
  pos: number;
}

export interface Acc {
  count: number;
  sum: number;
  /** Occurrences whose error exceeds TAIL_ERROR. */
  tail: number;
  max: number;
  at: Occurrence;
}

export type Dimension = "tokens" | "positions" | "turns" | "moe";

export interface Tally {
  samples: number;
  maskedTokens: number;
  /** Masked tokens whose error is NaN or infinite: left out of every mean, counted here. */
  nonFinite: number;
  /** Token ids below DENSE_LIMIT, by id (./dense); `bigTokens` holds the rest. */
  tokens: DenseAccs;
  bigTokens: Map<number, Acc>;
  positions: Map<number, Acc>;
  /** The samples tallied, in order: what the token table's worst occurrences point at. */
  refs: Array<Omit<Occurrence, "pos">>;
}

export interface TallySample extends MismatchInput {
  step: number;
  file: string;
  line: number;
  tokenIds: readonly number[] | null;
}

export function emptyTally(): Tally {
  const [bigTokens, positions] = [new Map(), new Map()];
  const tokens = emptyDense();
  return {
    samples: 0,
    maskedTokens: 0,
    nonFinite: 0,
    tokens,
    bigTokens,
    positions,
    refs: [],
  };
}

/** The bucket of position `pos` ≥ 1: b holds [2^b, 2^(b+1)). */
export function positionBucket(pos: number): number {
  return 31 - Math.clz32(pos);
}

export function bucketRange(b: number): [from: number, to: number] {
  return [2 ** b, 2 ** (b + 1) - 1];
}

// The occurrence is built only when a key is new or its worst changes: this runs per trained token.
function bump(a: Acc, e: number, s: Omit<Occurrence, "pos">, pos: number): void {
  a.count++;
  a.sum += e;
  if (e > TAIL_ERROR) a.tail++;
  if (e > a.max) {
    a.max = e;
    a.at = { step: s.step, file: s.file, line: s.line, pos };
  }
}

/** Adds one occurrence under `key`, making its row when it is new. */
export function addOccurrence(
  into: Map<number, Acc>,
  key: number,
  e: number,
  s: Omit<Occurrence, "pos">,
  pos: number,
): Acc {
  const a = into.get(key);
  if (a !== undefined) {
    bump(a, e, s, pos);
    return a;
  }
  const at = { step: s.step, file: s.file, line: s.line, pos };
  const fresh = { count: 1, sum: e, tail: e > TAIL_ERROR ? 1 : 0, max: e, at };
  into.set(key, fresh);
  return fresh;
}

/** Adds one sample's masked tokens. */
export function addSample(t: Tally, s: TallySample): void {
  const ids = s.tokenIds;
  const mask = s.tokenLossMask;
  const [gen, prev] = [s.generationLogprobs, s.prevLogprobs];
  if (!ids || !mask || !gen || !prev) return;
  // ../mismatch tokenErrors' positions, without its array: this runs per trained token of a run.
  const n = Math.min(gen.length, prev.length, mask.length);
  const sampleMask = s.sampleLossMask ?? 1;
  t.samples++;
  const ref = t.refs.push({ step: s.step, file: s.file, line: s.line }) - 1;
  // A sample's bucket changes rarely along it: its row is looked up on a change only.
  let bucket = -1;
  let bucketAcc: Acc | null = null;
  // NeMo-RL drops position 0 (docs/trainer-logs.md).
  for (let p = 1; p < n; p++) {
    const m = (mask[p] as number) * sampleMask;
    if (m === 0) continue;
    const e = tokenError(gen[p] as number, prev[p] as number, m);
    t.maskedTokens++;
    if (!Number.isFinite(e)) {
      t.nonFinite++;
      continue;
    }
    const id = ids[p] as number;
    if (id >= 0 && id < DENSE_LIMIT) addDense(t.tokens, id, e, TAIL_ERROR, ref, p);
    else addOccurrence(t.bigTokens, id, e, s, p);
    const b = positionBucket(p);
    if (b === bucket && bucketAcc) bump(bucketAcc, e, s, p);
    else [bucket, bucketAcc] = [b, addOccurrence(t.positions, b, e, s, p)];
  }
}

/** Adds `from`'s rows into `into`'s; the worst of equals stays `into`'s. */
export function mergeAccs(into: Map<number, Acc>, from: ReadonlyMap<number, Acc>): void {
  for (const [k, b] of from) {
    const a = into.get(k);
    if (a === undefined) {
      into.set(k, { count: b.count, sum: b.sum, tail: b.tail, max: b.max, at: b.at });
      continue;
    }
    a.count += b.count;
    a.sum += b.sum;
    a.tail += b.tail;
    if (b.max > a.max) [a.max, a.at] = [b.max, b.at];
  }
}

/** Tallies of several files as one; the worst occurrence of equals is the first merged. */
export function mergeTallies(parts: readonly Tally[]): Tally {
  const out = emptyTally();
  for (const p of parts) {
    out.samples += p.samples;
    out.maskedTokens += p.maskedTokens;
    out.nonFinite += p.nonFinite;
    mergeDense(out.tokens, p.tokens, out.refs.length);
    for (const r of p.refs) out.refs.push(r);
    mergeAccs(out.bigTokens, p.bigTokens);
    mergeAccs(out.positions, p.positions);
  }
  return out;
}

/** Every token id seen, with its accumulator (built here: the table keeps none). */
export function* tokenEntries(t: Tally): Iterable<[number, Acc]> {
  const d = t.tokens;
  for (let id = 0; id < d.count.length; id++) {
    const count = d.count[id] as number;
    if (count === 0) continue;
    const at = {
      ...(t.refs[d.atRef[id] as number] as Tally["refs"][number]),
      pos: d.atPos[id] as number,
    };
    yield [
      id,
      { count, sum: d.sum[id] as number, tail: d.tail[id] as number, max: d.max[id] as number, at },
    ];
  }
  yield* t.bigTokens;
}

export const distinctTokens = (t: Tally) => denseSize(t.tokens) + t.bigTokens.size;

export type RankBy = "mean" | "tail";

export interface Ranked {
  key: number;
  acc: Acc;
}

/**
 * The `limit` keys with the highest mean error (or tail share), among those seen at least
 * `minCount` times; ties by count, then key. Sorting is over the keys seen, not the tokens.
 */
export function rank(m: Iterable<[number, Acc]>, by: RankBy, minCount: number, limit: number) {
  const value = (a: Acc) => (by === "mean" ? a.sum / a.count : a.tail / a.count);
  const rows: Ranked[] = [];
  for (const [key, acc] of m) if (acc.count >= minCount) rows.push({ key, acc });
  rows.sort((x, y) => value(y.acc) - value(x.acc) || y.acc.count - x.acc.count || x.key - y.key);
  return rows.slice(0, limit);
}
