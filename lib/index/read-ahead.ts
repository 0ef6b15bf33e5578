// Reads the store files the index's workers will read next, on a worker thread of its own, a few
// batches ahead of them, so a cold disk is busy while they parse. The index's workers read
// synchronously (a hung mount costs a worker, never a shared I/O thread), so without this each one
// waits for the disk between parses. The read-ahead reads synchronously too, on its own worker that
// its pool abandons if a read stalls; it keeps no bytes (the page cache keeps them), and it stops
// as soon as the files turn out to be cached already, where it would only cost time.
// Not responsible for summarising (./pool) or for what a file means (the worker's read).
import "server-only";
import { fullReads, type StoreWorkerPool } from "@/lib/store";
import type { StoreJob, SummarizeInput } from "@/lib/rollout";

/** Batches read ahead of the ones the workers have finished. */
export const AHEAD = 4;
/** A batch read faster than this (bytes per ms) came from the page cache: stop reading ahead. */
const CACHED_BYTES_PER_MS = 2_000_000;

export interface ReadAheadResult {
  bytes: number;
  ms: number;
}

export class ReadAhead {
  private finished = 0;
  private wake: (() => void) | null = null;
  private stopped = false;

  /** Reads `batches`' files in order on `pool`, staying at most AHEAD batches ahead. */
  constructor(
    private readonly pool: Pick<StoreWorkerPool, "run">,
    batches: readonly SummarizeInput[][],
  ) {
    void this.run(batches).catch(() => undefined);
  }

  /** The workers finished a batch: the read-ahead may go one further. */
  batchDone(): void {
    this.finished++;
    this.wake?.();
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  private async run(batches: readonly SummarizeInput[][]): Promise<void> {
    for (let i = 0; i < batches.length && !this.stopped; i++) {
      while (!this.stopped && i - this.finished >= AHEAD)
        await new Promise<void>((resolve) => (this.wake = resolve));
      if (this.stopped) return;
      const files = (batches[i] as SummarizeInput[]).flatMap((input) =>
        fullReads(input.tokensDir, input.modelCallsDir, input.rolloutId, new Set(input.present)),
      );
      const job: StoreJob = { kind: "read-ahead", files };
      // A failure (a stalled read, its worker abandoned) ends the read-ahead, nothing else.
      const r = await this.pool.run<ReadAheadResult>(job);
      if (r.bytes > 1 << 18 && r.bytes / Math.max(r.ms, 0.001) > CACHED_BYTES_PER_MS) return;
    }
  }
}
