// How long a request waits for a run's index before answering with its progress: up to the
// caller's wait, but not while the index cannot end soon. A store still being listed after
// COUNTING_WAIT_MS, or more than WAIT_ONLY_BELOW rollouts left to summarise, is answered at once,
// so a large run's page shows its progress sooner instead of a blank wait; a small run's page
// still waits for its final numbers. Not responsible for the index itself (./run-index).
import type { IndexProgress } from "@/lib/schema";

/** A wait ends once more rollouts than this are left to summarise. */
export const WAIT_ONLY_BELOW = 2_000;
/** ... or once the store has been listed this long without a count (a large store). */
export const COUNTING_WAIT_MS = 150;
/** How often a wait looks at the progress. */
const POLL_MS = 20;

/**
 * A request's wait for a refresh: until it ends or `ms` pass; `brief`, also until the progress
 * says the end is not near (./waitWhileWorthIt), "counted" only once the count says so.
 */
export async function waitOnIndex(
  refreshing: Promise<void>,
  progress: Readonly<Pick<IndexProgress, "total" | "done">>,
  ms: number,
  brief?: boolean | "counted",
): Promise<void> {
  if (brief)
    return waitWhileWorthIt(refreshing, progress, ms, brief === "counted" ? ms : undefined);
  await Promise.race([refreshing, new Promise((r) => setTimeout(r, ms))]);
}

/** Resolves when `refreshing` ends, `ms` pass, or the progress says the end is not near. */
export async function waitWhileWorthIt(
  refreshing: Promise<void>,
  progress: Readonly<Pick<IndexProgress, "total" | "done">>,
  ms: number,
  countingMs = COUNTING_WAIT_MS,
): Promise<void> {
  const t0 = Date.now();
  let ended = false;
  void refreshing.finally(() => (ended = true));
  while (!ended && Date.now() - t0 < ms) {
    const left = progress.total - progress.done;
    if (left > WAIT_ONLY_BELOW) return;
    if (progress.total === 0 && Date.now() - t0 >= countingMs) return;
    const step = Math.max(1, Math.min(POLL_MS, ms - (Date.now() - t0)));
    await Promise.race([refreshing, new Promise((r) => setTimeout(r, step))]);
  }
}
