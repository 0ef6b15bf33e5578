// The parent digests a rollout's build will verify (docs/builder.md §2: a child's prompt prefix of its
// named parent's cumulative length), started on the thread pool while the token file is still
// being read, so the hashing of a long chain runs beside the parse instead of after it. Only ever
// computes digests ahead: verification (prefix-merging) hashes whatever it does not find.
import type { TokenEntry, TokenIds } from "@/lib/schema";
import { startDigest } from "./digest-ahead";

/** Tokens to hash below which nothing is started: a short rollout hashes faster than it waits. */
const START_TOKENS = 1 << 20;
const IN_FLIGHT = 4;

interface Job {
  tokens: TokenIds;
  length: number;
}

export class ParentPrehash {
  private readonly byId = new Map<string, TokenEntry[]>();
  private readonly queue: Job[] = [];
  private queuedTokens = 0;
  private started = false;
  private running = 0;
  private idle: (() => void) | null = null;

  /** An entry as the reader parses it: its own digests are asked of its named parent's length. */
  add(entry: TokenEntry): void {
    const same = this.byId.get(entry.model_call_id);
    if (same) same.push(entry);
    else this.byId.set(entry.model_call_id, [entry]);
    if (entry.parent_call_id === null) return;
    for (const parent of this.byId.get(entry.parent_call_id) ?? []) {
      if (parent.digest === null) continue;
      const length =
        parent.cum_len ?? parent.prompt_token_ids.length + parent.generation_token_ids.length;
      if (length > entry.prompt_token_ids.length) continue;
      this.queue.push({ tokens: entry.prompt_token_ids, length });
      this.queuedTokens += length;
    }
    if (!this.started && this.queuedTokens >= START_TOKENS) this.started = true;
    if (this.started) this.pump();
  }

  /** Resolves when every digest started is known (at once when none was). */
  done(): Promise<void> {
    this.queue.length = this.started ? this.queue.length : 0;
    this.pump();
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => (this.idle = resolve));
  }

  private pump(): void {
    while (this.running < IN_FLIGHT && this.queue.length > 0) {
      const { tokens, length } = this.queue.shift() as Job;
      const job = startDigest(tokens, length);
      if (!job) continue;
      this.running++;
      // A failed digest is only a digest not known ahead: verification computes it.
      void job
        .catch(() => undefined)
        .finally(() => {
          this.running--;
          this.pump();
          if (this.running === 0 && this.queue.length === 0) this.idle?.();
        });
    }
  }
}
