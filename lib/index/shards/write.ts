// Summarises one shard of a run (`rollout-lens index RUN --shard i/n`): lists the run as the
// summary index does (store listings, rollouts.jsonl, ../keys keyedInputs), keeps the
// rollouts (and holds the records) whose id hashes to the shard (./file shardOf), summarises them
// with the index's summariser (summarizeSafely) and writes them to a shard file. Reads the run
// only; writes only `outFile`.
import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import { listStore } from "@/lib/store";
import { readRolloutRecords, type RunLayout } from "@/lib/runs";
import { type IndexedSummary, searchTextJson, summarizeSafely } from "@/lib/rollout";
import {
  CURRENT_KEY_PREFIX,
  keyedInputsOf,
  recordIdsOf,
  runRollouts,
  SUMMARY_VERSION,
  type KeyedInput,
} from "../keys";
import { shardOf, ShardWriter, type ShardMeta, type ShardRow, type ShardSpec } from "./file";

export interface RunInputs {
  /** The run's rollouts (a shard's, listed for one) with inputs and row keys, as the index's. */
  inputs: Map<string, KeyedInput>;
  /** Rollouts in the whole run (every shard's). */
  rollouts: number;
  /** Store files whose names are not rollout ids. */
  skipped: string[];
  /** Lines of rollouts.jsonl that could not be read. */
  unreadableRecords: number;
  /** Why rollouts.jsonl could not be read at all, or null. */
  recordsError: string | null;
}

/**
 * The run's rollouts, keyed exactly as lib/index/run-index keys them on a refresh; with `spec`,
 * only the shard's, and only its records held (the others' ids alone: a shard of a run of a million
 * rollouts does not hold the million records).
 */
export async function listRunInputs(run: RunLayout, spec?: ShardSpec): Promise<RunInputs> {
  const keep = spec ? (id: string) => shardOf(id, spec.count) === spec.index : () => true;
  const filter = spec ? { scope: `shard ${spec.index}/${spec.count}`, keep } : undefined;
  const [tokens, calls, records] = await Promise.all([
    run.tokensDir ? listStore(run.tokensDir, { stat: true }) : null,
    run.modelCallsDir && run.modelCallsDir !== run.tokensDir
      ? listStore(run.modelCallsDir, { stat: true })
      : null,
    readRolloutRecords(run.rolloutsFile, filter),
  ]);
  const r = runRollouts(run, tokens, calls, recordIdsOf(records));
  // A record's shard is known from the read (its id hashed once); a store's rollout is hashed here.
  const mine = (id: string) => records.byId.has(id) || (!records.others.has(id) && keep(id));
  return {
    inputs: keyedInputsOf(r, records, mine),
    rollouts: r.ids.size,
    skipped: [...(tokens?.skipped ?? []), ...(calls?.skipped ?? [])],
    unreadableRecords: records.unreadable.length,
    recordsError: records.readError,
  };
}

/**
 * `<SUMMARY_VERSION>:<build id>` of the app installed at `appDir` (its `.next/BUILD_ID`, "dev"
 * without one). summary-keys reads the build id from the working directory, which is the app
 * directory for the server but anywhere for a batch job; a shard's keys must carry the server's.
 */
export function codeVersionAt(appDir: string): string {
  try {
    const id = readFileSync(path.join(appDir, ".next", "BUILD_ID"), "utf8").trim();
    return `${SUMMARY_VERSION}:${id}`;
  } catch {
    return `${SUMMARY_VERSION}:dev`;
  }
}

export interface ShardOptions {
  /** The build the keys name (codeVersionAt); default this process's (lib/index/keys CODE_VERSION). */
  codeVersion?: string;
  /** Rollouts summarised at once (their reads overlap); default 4. */
  concurrency?: number;
  /** Called before the first summary and after each with how many of the shard's rollouts are done. */
  onProgress?: (done: number, total: number) => void;
}

export interface ShardResult {
  meta: ShardMeta;
  /** Rollouts in the whole run (every shard's). */
  runRollouts: number;
  listing: RunInputs;
}

/** A summary as a shard row keeps it: JSON, its search text's deflated bytes in base64 (absent: none decoded). */
export function shardSummaryJson({ search_text, ...summary }: IndexedSummary): string {
  const text =
    search_text === undefined ? {} : { search_text: search_text && searchTextJson(search_text) };
  return JSON.stringify({ ...summary, ...text });
}

/** Summarises the shard `spec` of `run` into a shard file at `outFile` (see the module comment). */
export async function indexShard(
  run: RunLayout,
  spec: ShardSpec,
  outFile: string,
  options: ShardOptions = {},
): Promise<ShardResult> {
  const listing = await listRunInputs(run, spec);
  const mine = [...listing.inputs.values()];
  const prefix = options.codeVersion === undefined ? CURRENT_KEY_PREFIX : `${options.codeVersion}|`;
  const writer = new ShardWriter(outFile, {
    run_dir: path.resolve(run.dir),
    run_id: run.id,
    shard_index: spec.index,
    shard_count: spec.count,
    summary_version: SUMMARY_VERSION,
    key_prefix: prefix,
  });
  try {
    const pending: ShardRow[] = [];
    let done = 0;
    options.onProgress?.(0, mine.length);
    await forEachConcurrently(mine, options.concurrency ?? 4, async ({ input, key }) => {
      pending.push({
        id: input.rolloutId,
        key: rekey(key, prefix),
        summary: shardSummaryJson(await summarizeSafely(input)),
      });
      if (pending.length >= 200) writer.add(pending.splice(0));
      options.onProgress?.(++done, mine.length);
    });
    writer.add(pending);
    return { meta: writer.finish(), runRollouts: listing.rollouts, listing };
  } catch (err) {
    writer.abort();
    throw err;
  }
}

/** The index's key with this process's build replaced by the one the shard is made for. */
function rekey(key: string, prefix: string): string {
  if (!key.startsWith(CURRENT_KEY_PREFIX))
    throw new Error(`row key ${JSON.stringify(key)} does not start with ${CURRENT_KEY_PREFIX}`);
  return prefix + key.slice(CURRENT_KEY_PREFIX.length);
}

/** Runs `work` over `items` with at most `limit` in flight; the first failure rejects. */
async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}
