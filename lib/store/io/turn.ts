// Gives other requests a turn of the event loop between pieces of long work on the server's
// thread: one setImmediate, so the loop runs its pending I/O callbacks before the next piece.
// A paced SQL pass waits on a short timer instead (lib/health/pass), for several rounds of I/O.
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
