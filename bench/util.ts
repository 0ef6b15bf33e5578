// Shared benchmark helpers: timing with warm-up and formatting.

/** Median wall time of `runs` calls after one warm-up, in milliseconds. */
export async function time<T>(fn: () => T | Promise<T>, runs = 3): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

export function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}
