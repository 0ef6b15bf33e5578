// The memory a store worker (./serve) shares with its pool (./pool) to show the synchronous
// file call it is in. Not responsible for deciding a call has stalled (the pool's watchdog).
/**
 * The shared bytes: when the call began (Date.now(), 0 when none) and the file's base name (what a
 * stall message names). Shared, not posted: a message per file cost a worker reading 10,000 small
 * files about 0.25 s, and the parent as much to receive them.
 */
export const WATCH_BYTES = 16 + 1024;

export interface WatchViews {
  /** [0]: when the current call began (Date.now()); 0 when none. */
  since: Float64Array;
  /** [0]: the name's length in bytes. */
  nameLength: Int32Array;
  name: Uint8Array;
}

export function watchViews(shared: SharedArrayBuffer): WatchViews {
  return {
    since: new Float64Array(shared, 0, 1),
    nameLength: new Int32Array(shared, 8, 1),
    name: new Uint8Array(shared, 16),
  };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Writes `name` (cut at the buffer's end on a UTF-8 boundary) for the pool to read. */
export function writeWatchedName(v: WatchViews, name: string): void {
  v.nameLength[0] = encoder.encodeInto(name, v.name).written;
}

/** The name the worker last wrote ("" before any). Read while the worker is stuck in its call. */
export function readWatchedName(v: WatchViews): string {
  return decoder.decode(v.name.slice(0, v.nameLength[0]));
}
