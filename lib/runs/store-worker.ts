// A store worker thread, run as dist/store-worker.mjs (bundled by scripts/build-node.mjs) for the
// pools of lib/store/io-pool: reads and decides one rollout for the inspector (`build`) or
// summarises one for the summary index (`summarize`), or checks the index's SQLite cache
// (`check-cache`). Its file calls are synchronous and watched, so a read that hangs costs this
// thread, which its pool abandons, and nothing else.
import "server-only";
import { InvalidInputError, UnknownRolloutError } from "@/lib/errors";
import { OutsideStoreError } from "@/lib/store/confine";
import { serveStoreJobs } from "@/lib/store/io-serve";
import { buildRollout, type BuildRolloutOptions, type RolloutSource } from "./build-rollout";
import { cacheDamage } from "./cache-check";
import { summarizeSafely, type SummarizeInput } from "./summarize";

export type StoreJob =
  | {
      kind: "build";
      where: string | RolloutSource;
      rolloutId: string;
      options: Omit<BuildRolloutOptions, "signal" | "onProgress">;
      progress: boolean;
    }
  | { kind: "summarize"; input: SummarizeInput }
  | { kind: "check-cache"; file: string };

serveStoreJobs(
  async (request, ctx) => {
    const job = request as StoreJob;
    if (job.kind === "summarize") return summarizeSafely(job.input);
    if (job.kind === "check-cache") return cacheDamage(job.file);
    const onProgress = job.progress ? ctx.progress : undefined;
    return buildRollout(job.where, job.rolloutId, { ...job.options, onProgress });
  },
  (err) =>
    err instanceof OutsideStoreError
      ? "outside"
      : err instanceof UnknownRolloutError
        ? "unknown-rollout"
        : err instanceof InvalidInputError
          ? "invalid-input"
          : "error",
);
