// The jobs of lib/runs that a store worker thread (lib/inspect/store-worker, run as
// dist/store-worker.mjs) runs for the pools of lib/store/io/pool: read and decide one rollout
// (`build`), summarise a batch for the summary index (`summarize`), or check the index's SQLite cache
// (`check-cache`), list a store directory with every file's stat (`list`, so a store of 10^5 files
// costs the server's own thread one message, not 10^5 stat callbacks); and how a failure is named so the parent revives the same error class.
import "server-only";
import { InvalidInputError, UnknownRolloutError } from "@/lib/errors";
import path from "node:path";
import {
  confine,
  OutsideStoreError,
  listStore,
  openRegular,
  packListing,
  type JobContext,
} from "@/lib/store";
import { buildRollout, type BuildRolloutOptions, type RolloutSource } from "./build";
import { cacheDamage } from "./cache-check";
import { summarizeSafely, type SummarizeInput } from "./summarize";
import { slimTokenizerText } from "@/lib/tokens";

export type StoreJob =
  | {
      kind: "build";
      where: string | RolloutSource;
      rolloutId: string;
      options: Omit<BuildRolloutOptions, "signal" | "onProgress">;
      progress: boolean;
    }
  | { kind: "summarize"; inputs: SummarizeInput[] }
  | { kind: "check-cache"; file: string }
  | { kind: "read-ahead"; files: string[] }
  | { kind: "list"; dir: string }
  | { kind: "tokenizer"; file: string; configFile: string };

export function isStoreJob(job: { kind: string }): job is StoreJob {
  return (
    job.kind === "build" ||
    job.kind === "summarize" ||
    job.kind === "check-cache" ||
    job.kind === "read-ahead" ||
    job.kind === "list" ||
    job.kind === "tokenizer"
  );
}

export async function runStoreJob(job: StoreJob, ctx: JobContext): Promise<unknown> {
  if (job.kind === "summarize") {
    // A batch, in turn: one message each way for many small rollouts (lib/index/pool's batches).
    const summaries = [];
    for (const input of job.inputs) {
      const s = await summarizeSafely(input);
      // Its search text's bytes, in a buffer of their own (./search-text), are moved, not copied.
      if (s.search_text) ctx.transfer([s.search_text.body.buffer as ArrayBuffer]);
      summaries.push(s);
    }
    return summaries;
  }
  if (job.kind === "check-cache") return cacheDamage(job.file);
  if (job.kind === "read-ahead") return readThrough(job.files);
  if (job.kind === "list") return packListing(await listStore(job.dir, { stat: true }));
  if (job.kind === "tokenizer") {
    // A large tokenizer leaves a large heap: the worker is ended after it rather than reused.
    const text = await slimTokenizerText(job.file, job.configFile);
    ctx.retireIfHeavy();
    return text;
  }
  const onProgress = job.progress ? ctx.progress : undefined;
  return buildRollout(job.where, job.rolloutId, { ...job.options, onProgress });
}

/** The failure's kind, which the parent's reviveStoreError (./build-rollout-pool) turns back. */
export function classifyStoreError(err: unknown): string {
  if (err instanceof OutsideStoreError) return "outside";
  if (err instanceof UnknownRolloutError) return "unknown-rollout";
  if (err instanceof InvalidInputError) return "invalid-input";
  return "error";
}

const scratch = Buffer.allocUnsafe(1 << 20);

/** Reads `files` through, keeping nothing (./read-ahead): the bytes read and how long it took. */
async function readThrough(files: readonly string[]): Promise<{ bytes: number; ms: number }> {
  const t0 = performance.now();
  let bytes = 0;
  for (const file of files) {
    try {
      await confine(path.dirname(file), file); // a symlink out of its store is not read
      const f = await openRegular(file);
      try {
        let at = 0;
        for (let n = await f.read(scratch, at); n > 0; n = await f.read(scratch, at)) at += n;
        bytes += at;
      } finally {
        await f.close();
      }
    } catch {
      // Gone, not a regular file, or outside the store: the summary's own read says what it is.
    }
  }
  return { bytes, ms: performance.now() - t0 };
}
