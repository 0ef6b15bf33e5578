// A request's wait for the index: the whole wait for a small run, none for a large one.
import { afterEach, describe, expect, it, vi } from "vitest";
import { COUNTING_WAIT_MS, WAIT_ONLY_BELOW, waitWhileWorthIt } from "./wait";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
/** Whether `p` has settled after the pending timers up to `ms` have run. */
async function settledAfter(p: Promise<void>, ms: number): Promise<boolean> {
  let settled = false;
  void p.then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

describe("waitWhileWorthIt", () => {
  afterEach(() => void vi.useRealTimers());

  it("a small run: waits for the index to end, within the wait", async () => {
    vi.useFakeTimers();
    const r = deferred();
    const progress = { total: 40, done: 3 };
    const wait = waitWhileWorthIt(r.promise, progress, 400);
    expect(await settledAfter(wait, 300)).toBe(false);
    r.resolve();
    expect(await settledAfter(wait, 1)).toBe(true);
  });

  it("never longer than the wait", async () => {
    vi.useFakeTimers();
    const wait = waitWhileWorthIt(deferred().promise, { total: 40, done: 3 }, 400);
    expect(await settledAfter(wait, 399)).toBe(false);
    expect(await settledAfter(wait, 2)).toBe(true);
  });

  it(`more than ${WAIT_ONLY_BELOW} rollouts left: answers at once`, async () => {
    vi.useFakeTimers();
    const progress = { total: 10_000, done: 0 };
    const wait = waitWhileWorthIt(deferred().promise, progress, 400);
    expect(await settledAfter(wait, 0)).toBe(true);
  });

  it("a store still being listed: answers after the counting wait, and the progress changing mid-wait counts", async () => {
    vi.useFakeTimers();
    const counting = waitWhileWorthIt(deferred().promise, { total: 0, done: 0 }, 400);
    expect(await settledAfter(counting, COUNTING_WAIT_MS - 30)).toBe(false);
    expect(await settledAfter(counting, 60)).toBe(true);
    const progress = { total: 100, done: 0 };
    const growing = waitWhileWorthIt(deferred().promise, progress, 400);
    expect(await settledAfter(growing, 100)).toBe(false);
    progress.total = 5_000; // the listing found more
    expect(await settledAfter(growing, 30)).toBe(true);
  });

  it("a table's wait (the counting wait as long as the wait): waits through the listing, not past the count", async () => {
    vi.useFakeTimers();
    const progress = { total: 0, done: 0 };
    const wait = waitWhileWorthIt(deferred().promise, progress, 1500, 1500);
    expect(await settledAfter(wait, 1000)).toBe(false);
    progress.total = 1_000_000; // counted: a large run
    expect(await settledAfter(wait, 30)).toBe(true);
  });
});
