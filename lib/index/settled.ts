// What runs when a refresh of many rollouts that changed an index's rows ends, before its progress
// says so: the run's health (lib/health registers it), so the first look after a large index is a
// warm one. Held on globalThis: Next bundles routes separately, and any bundle's index may end a
// refresh.
import type { SummaryIndex } from "./run-index";

export type IndexSettled = (index: SummaryIndex) => Promise<unknown>;

const SETTLED = Symbol.for("rollout-lens.index-settled");
/**
 * Refreshes of fewer rollouts leave their health to its first look (a small run's takes a few ms;
 * a root of fifty small runs listed at once would otherwise compute fifty it may never show).
 */
export const SETTLE_FROM = 10_000;
type Holder = { [SETTLED]?: IndexSettled };

/** Sets what runs when a refresh that changed an index's rows ends (one function; the last set). */
export function onIndexSettled(fn: IndexSettled): void {
  (globalThis as Holder)[SETTLED] = fn;
}

/**
 * A refresh's end: what onIndexSettled set runs when the rows changed since `generation` (its
 * failure is not the index's), then a followed read's progress reaches its total
 * (./records-follow), and only then may the progress say the index is done.
 */
export async function endRefresh(index: SummaryIndex, generation: number): Promise<void> {
  const fn = (globalThis as Holder)[SETTLED];
  const large = index.progress.total >= SETTLE_FROM;
  if (fn && large && index.rows.generation !== generation) await fn(index).catch(() => undefined);
  const p = index.progress;
  if (p.records_read !== null) Object.assign(p, { done: p.total, records_read: null });
}
