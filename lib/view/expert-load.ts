// The token view's layer × expert load (docs/experts.md): how often each expert was routed to in
// each MoE layer over a window's positions (fallback and missing routes skipped), as one flat count
// array the heatmap draws. Pure; the window comes from the experts route.

export interface ExpertLoad {
  layers: number;
  /** Columns: the highest expert index seen plus one. */
  experts: number;
  /** Row-major [layer][expert]. */
  counts: Uint32Array;
  max: number;
  /** Positions with a route. */
  routed: number;
}

export function expertLoad(
  window: ReadonlyArray<ReadonlyArray<readonly number[]> | null>,
  layers: number,
): ExpertLoad {
  let experts = 0;
  for (const row of window)
    if (row) for (const ks of row) for (const e of ks) if (e + 1 > experts) experts = e + 1;
  const counts = new Uint32Array(layers * experts);
  let max = 0;
  let routed = 0;
  for (const row of window) {
    if (!row) continue;
    routed++;
    row.forEach((ks, l) => {
      if (l >= layers) return;
      for (const e of ks) {
        if (e < 0) continue;
        const i = l * experts + e;
        const n = (counts[i] as number) + 1;
        counts[i] = n;
        if (n > max) max = n;
      }
    });
  }
  return { layers, experts, counts, max, routed };
}

/** A route's experts per layer as a line of text: `L0 3 5 · L1 0 7 …`. */
export function routeWords(route: ReadonlyArray<readonly number[]>): string {
  return route.map((ks, l) => `L${l} ${ks.join(" ")}`).join(" · ");
}
