// The inspector's builds on the interactive store worker pool (lib/rollout/pool): a
// rollout's model, or the other profile's verdict facts, made on a worker (./model-jobs) and
// received with the token arrays moved, not copied; the decoder is this thread's own (cached).
// Also a sequence's folded text for find, decoded there (a 200k-token chain: 80–300 ms).
// Without a worker pool (no built worker, ROLLOUT_LENS_IO_WORKERS=0, or on a worker) they run here.
import "server-only";
import { readTokenizerOffThread, reviveStoreError, storePool } from "@/lib/rollout";
import type { OtherProfileVerdict } from "@/lib/schema";
import { decoderFor, o200kDecoder, type TokenDecoder } from "@/lib/tokens";
import { foldedTextOf, type FoldedText } from "./fold-case";
import { buildModel, decideProfile, type ModelRequest } from "./build-model";
import type { ModelJob, SentModel } from "./model-jobs";
import type { RolloutModel } from "./model";

/** buildModel on a store worker when there is one. */
export async function buildModelOffThread(request: ModelRequest): Promise<RolloutModel> {
  const pool = storePool("interactive");
  if (!pool) return buildModel(request);
  const { signal, progress, ...rest } = request;
  const job: ModelJob = { kind: "model", request: rest };
  // This thread's decoder loads (once per tokenizer, cached) while the worker builds.
  const decoder = decoderOf(request.run);
  const sent = await pool.run<SentModel>(job, {
    signal,
    onProgress: progress?.read,
    onPhase: (phase) => void (phase === "decoding" && progress?.decoding()),
    revive: reviveStoreError,
  });
  return { ...sent, decoder: sent.view.tokenizer === null ? null : await decoder };
}

/** decideProfile on a store worker when there is one: only the facts cross back. */
export async function decideProfileOffThread(
  run: ModelRequest["run"],
  rolloutId: string,
  profile: "seed" | "gym-v1",
  record: ModelRequest["record"],
  signal: AbortSignal,
): Promise<OtherProfileVerdict> {
  const pool = storePool("interactive");
  if (!pool) return decideProfile(run, rolloutId, profile, record, signal);
  const job: ModelJob = { kind: "decide", run, rolloutId, profile, record };
  return pool.run<OtherProfileVerdict>(job, { signal, revive: reviveStoreError });
}

/** The ids as one folded text with each token's start (./fold-case), on a store worker if any. */
export async function foldedTextOffThread(
  run: ModelRequest["run"],
  decoder: TokenDecoder,
  ids: Int32Array,
): Promise<FoldedText> {
  const pool = storePool("interactive");
  if (!pool) return foldedTextOf(decoder, ids);
  const job: ModelJob = { kind: "find-text", run, ids };
  return pool.run<FoldedText>(job, { revive: reviveStoreError });
}

/**
 * Readies the first cold build before anyone asks (the server calls it when it starts): a store
 * worker started with its bundle loaded, and the bundled tokenizer's tables loaded here and there.
 */
export async function warmInspector(): Promise<void> {
  await o200kDecoder();
  const job: ModelJob = { kind: "warm" };
  await storePool("interactive")?.run(job);
}

/** This thread's decoder for the run; null when it fails (the worker's view says why). */
async function decoderOf(run: ModelRequest["run"]): Promise<TokenDecoder | null> {
  try {
    return await decoderFor(run.dir, run.manifest.tokenizer, run.root, readTokenizerOffThread);
  } catch {
    return null;
  }
}
