// The inspector's jobs on a store worker thread (./store-worker): build a rollout's model, decide
// the other profile's verdict facts, or decode a sequence's ids as one folded text for find (./find). The model's token arrays are moved to the parent, not
// copied, and its decoder stays behind (the parent has its own): so a 330 MB rollout costs the
// server's event loop a small structured clone of the view, never the build.
// Not responsible for the pools (./model-pool) or for caching (./rollout-model).
import "server-only";
import type { JobContext } from "@/lib/store";
import type { OtherProfileVerdict } from "@/lib/schema";
import { buildModel, decideProfile, type ModelRequest } from "./build-model";
import type { RolloutModel } from "./model";
import { decoderFor, o200kDecoder } from "@/lib/tokens";
import { foldedTextOf, type FoldedText } from "./fold-case";

/** A model without its decoder: what crosses from the worker. */
export type SentModel = Omit<RolloutModel, "decoder">;

export type ModelJob =
  | { kind: "warm" }
  | { kind: "model"; request: Omit<ModelRequest, "signal" | "progress"> }
  | {
      kind: "decide";
      run: ModelRequest["run"];
      rolloutId: string;
      profile: "seed" | "gym-v1";
      record: ModelRequest["record"];
    }
  | { kind: "find-text"; run: ModelRequest["run"]; ids: Int32Array };

export function isModelJob(job: { kind: string }): job is ModelJob {
  return (
    job.kind === "model" || job.kind === "decide" || job.kind === "warm" || job.kind === "find-text"
  );
}

/** Every buffer behind the model's token arrays, once each (a transfer list takes no duplicates). */
export function tokenBuffers(model: Pick<RolloutModel, "tokens">): Set<ArrayBuffer> {
  const buffers = new Set<ArrayBuffer>();
  const add = (a: Int8Array | Int16Array | Int32Array | Float64Array | null) => {
    if (a && a.buffer instanceof ArrayBuffer) buffers.add(a.buffer);
  };
  for (const t of model.tokens) {
    add(t.own);
    add(t.gen);
    add(t.logProbs);
    add(t.routes?.data ?? null);
  }
  return buffers;
}

export async function runModelJob(
  job: ModelJob,
  ctx: JobContext,
): Promise<SentModel | OtherProfileVerdict | FoldedText | null> {
  if (job.kind === "warm") {
    await o200kDecoder();
    return null;
  }
  if (job.kind === "find-text") {
    const { run } = job;
    const decoder = await decoderFor(run.dir, run.manifest.tokenizer, run.root);
    if (!decoder) throw new Error(`run ${run.id} names no tokenizer`);
    const decoded = foldedTextOf(decoder, job.ids);
    ctx.transfer([decoded.starts.buffer as ArrayBuffer]);
    return decoded;
  }
  // The worker's job is not cancelled from inside: a cancelled request terminates the worker.
  const signal = new AbortController().signal;
  try {
    if (job.kind === "decide")
      return await decideProfile(job.run, job.rolloutId, job.profile, job.record, signal);
    const progress = { read: ctx.progress, decoding: () => ctx.phase("decoding") };
    const built: Partial<RolloutModel> & SentModel = await buildModel({
      ...job.request,
      signal,
      progress,
    });
    delete built.decoder;
    ctx.transfer(tokenBuffers(built));
    return built;
  } finally {
    // A large rollout's entries leave garbage the worker's GC frees lazily; a page often asks for
    // the other profile's build next, on another worker: without this the two heaps add up.
    ctx.retireIfHeavy();
  }
}
