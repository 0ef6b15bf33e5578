// Gives other requests a turn of the event loop between pieces of long work on the server's
// thread: one setImmediate, so the loop runs its pending I/O callbacks before the next piece.
// A paced SQL pass waits on a short timer instead (lib/health/pass), for several rounds of I/O.
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Turns taken one at a time: each call waits for the call before it, then a turn. Pieces that
 * start together (a list of runs opening their indexes) then each run in a turn of their own, where
 * `nextTurn` alone would run them all in the same one.
 */
export function turnQueue(): () => Promise<void> {
  let last = Promise.resolve();
  return () => (last = last.then(nextTurn));
}
