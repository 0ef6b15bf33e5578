// TensorBoard's (and W&B's default) scalar smoothing: an exponential moving average debiased for
// its start, so the first points are not pulled toward 0. Gaps (null) are kept as gaps and do not
// move the average. Pure; not responsible for downsampling.

/** `values` smoothed with weight `w` in [0, 1): 0 leaves them as they are. */
export function smoothEma(values: readonly (number | null)[], w: number): (number | null)[] {
  const weight = Math.min(Math.max(w, 0), 0.999);
  let last = 0;
  let n = 0;
  return values.map((v) => {
    if (v === null) return null;
    last = last * weight + (1 - weight) * v;
    n++;
    const debias = 1 - Math.pow(weight, n);
    return debias === 0 ? v : last / debias;
  });
}
