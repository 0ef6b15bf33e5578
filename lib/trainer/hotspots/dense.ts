// The token table of a hotspot tally (./tally): per token id, count, sum, tail, max and the worst
// occurrence in typed arrays indexed by the id, grown as ids arrive, so a trained token costs no
// hashing and no object. Ids at or above DENSE_LIMIT (no tokenizer has that many) are the caller's
// to keep elsewhere. Plain data: it crosses a worker's postMessage as it is. Pure.

/** Ids below this are kept here: 2M, far above any vocabulary (o200k_base has 200,019). */
export const DENSE_LIMIT = 1 << 21;

export interface DenseAccs {
  count: Uint32Array;
  tail: Uint32Array;
  sum: Float64Array;
  max: Float64Array;
  /** The worst occurrence: its sample (an index into the tally's `refs`) and position. */
  atRef: Int32Array;
  atPos: Int32Array;
}

export function emptyDense(): DenseAccs {
  return {
    count: new Uint32Array(0),
    tail: new Uint32Array(0),
    sum: new Float64Array(0),
    max: new Float64Array(0),
    atRef: new Int32Array(0),
    atPos: new Int32Array(0),
  };
}

function grown<T extends Uint32Array | Float64Array | Int32Array>(a: T, size: number): T {
  const out = new (a.constructor as new (n: number) => T)(size);
  out.set(a);
  return out;
}

function grow(d: DenseAccs, id: number): void {
  const size = Math.min(DENSE_LIMIT, Math.max(id + 1, d.count.length * 2, 1024));
  d.count = grown(d.count, size);
  d.tail = grown(d.tail, size);
  d.sum = grown(d.sum, size);
  d.max = grown(d.max, size);
  d.atRef = grown(d.atRef, size);
  d.atPos = grown(d.atPos, size);
}

/** Adds one occurrence of `id` (< DENSE_LIMIT) with error `e`; the first of equal worsts stays. */
export function addDense(
  d: DenseAccs,
  id: number,
  e: number,
  tailAbove: number,
  ref: number,
  pos: number,
): void {
  if (id >= d.count.length) grow(d, id);
  const c = d.count[id] as number;
  if (c === 0 || e > (d.max[id] as number)) {
    d.max[id] = e;
    d.atRef[id] = ref;
    d.atPos[id] = pos;
  }
  d.count[id] = c + 1;
  d.sum[id] = (d.sum[id] as number) + e;
  if (e > tailAbove) d.tail[id] = (d.tail[id] as number) + 1;
}

/** Adds `from` into `into`; `from`'s sample refs sit at `refOffset` in the merged refs. */
export function mergeDense(into: DenseAccs, from: DenseAccs, refOffset: number): void {
  if (from.count.length > into.count.length) grow(into, from.count.length - 1);
  for (let id = 0; id < from.count.length; id++) {
    const c = from.count[id] as number;
    if (c === 0) continue;
    const had = into.count[id] as number;
    if (had === 0 || (from.max[id] as number) > (into.max[id] as number)) {
      into.max[id] = from.max[id] as number;
      into.atRef[id] = (from.atRef[id] as number) + refOffset;
      into.atPos[id] = from.atPos[id] as number;
    }
    into.count[id] = had + c;
    into.sum[id] = (into.sum[id] as number) + (from.sum[id] as number);
    into.tail[id] = (into.tail[id] as number) + (from.tail[id] as number);
  }
}

/** Ids seen at least once. */
export function denseSize(d: DenseAccs): number {
  let n = 0;
  for (let id = 0; id < d.count.length; id++) if ((d.count[id] as number) > 0) n++;
  return n;
}
