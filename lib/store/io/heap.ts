// How far V8 lets a heap grow past what its last full collection kept. By default V8 picks a
// factor of up to 4 from its own speeds, so the server's thread, which keeps some 70 MB, could
// hold 200 MB more of garbage before collecting it, and a run's peak resident memory depended on
// whether a tooth of that saw fell inside its index (docs/benchmarks.md: the token runs' peak).
// A fixed factor keeps each heap within a known margin of what it keeps, for more full
// collections. Process-wide: the store workers' heaps are bounded the same way.
import "server-only";
import v8 from "node:v8";

/** Old-generation growth allowed after a full collection, in percent of what it kept. */
const HEAP_GROWTH_PERCENT = 50;

/** Applies the bound to every heap of the process: called once as the server starts. */
export function boundHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWTH_PERCENT}`);
}
