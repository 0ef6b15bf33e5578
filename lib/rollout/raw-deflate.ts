// Raw DEFLATE for search text (./search-text writes it, lib/index/search reads it). Node aborts
// the whole process when a thread is torn down inside zlib's native setup (its "close before
// init" assertion: a CI run's unit tests, Dec 2026, as a thread ended mid-index). Text is
// deflated by fflate, plain JavaScript, on whatever thread (the same bytes everywhere: a sharded
// index equals a single one row for row). It is inflated by node:zlib on the process's main
// thread, which is never torn down mid-call (10× faster on these short texts), and by fflate
// on any other (a store worker, a test runner's thread).
import { isMainThread } from "node:worker_threads";
import { inflateRawSync } from "node:zlib";
import { deflateSync, inflateSync } from "fflate";

export function rawDeflate(bytes: Uint8Array): Uint8Array {
  return deflateSync(bytes, { level: 1 });
}

export function rawInflate(bytes: Uint8Array): Buffer {
  if (isMainThread) return inflateRawSync(bytes);
  const out = inflateSync(bytes);
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}
