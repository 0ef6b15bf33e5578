// Seeds the summary index from a shard set (`rollout-lens index --shard`, ./shard-set): a shard's row
// is taken only when its key equals the key the index computes now for that rollout (same build,
// profile, side-call patterns, file versions, record and attempt group) and its summary is valid;
// every other row is stale and its rollout is summarised again. A shard set that cannot be used
// is a notice, never a failure of the run. Holds nothing; the index keeps what it takes.
import "server-only";
import { existsSync } from "node:fs";
import path from "node:path";
import { rolloutSummarySchema, type RolloutSummary } from "@/lib/schema";
import type { RunLayout } from "./runs-root";
import { listRunInputs } from "./shard-index";
import { readShardDir, shardSetRows } from "./shard-set";
import { CURRENT_KEY_PREFIX } from "./summary-keys";
import type { SummaryRow, SummaryRows } from "./summary-rows";

/** The variable naming the directory that holds each run's shards, in `<dir>/<run id>/`. */
export const SHARDS_ENV = "ROLLOUT_LENS_SHARDS";
/** Longest stretch of work on the calling thread before the event loop is let through. */
const SLICE_MS = 10;

export interface ShardImport {
  /** Rows still good, by rollout id: what the index would hold after summarising them itself. */
  rows: Map<string, { key: string; summary: RolloutSummary }>;
  /** Rows whose key no longer matches the store, or whose rollout is gone. */
  stale: number;
  /** Rows that are not a valid summary of their rollout. */
  invalid: number;
  /** Why the shard set was not used at all (bad set, another build), or null. */
  notice: string | null;
}

/** The run's shard directory, `$ROLLOUT_LENS_SHARDS/<run id>`, when that variable is set and it exists. */
export function shardDirFor(
  run: Pick<RunLayout, "id">,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | null {
  const base = env[SHARDS_ENV];
  if (!base) return null;
  const dir = path.join(path.resolve(base), run.id);
  return existsSync(dir) ? dir : null;
}

/**
 * The rows of the shard set at `where` (a directory of shards or one merged file) that `inputs`
 * (the index's keyed inputs, ./summary-keys keyedInputs) still agree with. Reads in slices of a
 * few ms with the event loop let through between them, as the index loads its own cache.
 */
export async function seedFromShards(
  where: string,
  inputs: ReadonlyMap<string, { key: string }>,
  keyPrefix: string = CURRENT_KEY_PREFIX,
): Promise<ShardImport> {
  const out: ShardImport = { rows: new Map(), stale: 0, invalid: 0, notice: null };
  try {
    const set = readShardDir(where);
    if (set.keyPrefix !== keyPrefix) {
      out.stale = set.rows;
      out.notice = `index shards in ${where} were summarised by build ${set.keyPrefix.slice(0, -1)}, this is ${keyPrefix.slice(0, -1)}: not used`;
      return out;
    }
    let slice = performance.now();
    for (const row of shardSetRows(set)) {
      if (inputs.get(row.id)?.key !== row.key) out.stale++;
      else {
        const summary = parseSummary(row.summary);
        if (summary?.rollout_id === row.id) out.rows.set(row.id, { key: row.key, summary });
        else out.invalid++;
      }
      if (performance.now() - slice < SLICE_MS) continue;
      await new Promise((r) => setImmediate(r));
      slice = performance.now();
    }
  } catch (err) {
    // A set found bad halfway is not trusted in part.
    return {
      rows: new Map(),
      stale: 0,
      invalid: 0,
      notice: `index shards not used: ${(err as Error).message}`,
    };
  }
  return out;
}

/** seedFromShards for a run, listing its store and records first (as a refresh of the index does). */
export async function importShards(run: RunLayout, where: string): Promise<ShardImport> {
  const { inputs } = await listRunInputs(run);
  return seedFromShards(where, inputs);
}

/** Rows written to the index's database at a time, with the event loop let through between. */
const WRITE_BATCH = 500;

/**
 * Seeds the index's database from the run's shard set, when `$ROLLOUT_LENS_SHARDS/<run id>` holds
 * one: its rows the index's keys still agree with are written as they are, so the refresh that
 * follows finds them current and summarises only the rest. Returns what to tell the operator (a
 * set not used, rows found stale), or null when there is nothing to say.
 */
export async function seedIndexFromShards(
  run: RunLayout,
  rows: SummaryRows,
): Promise<string | null> {
  const dir = shardDirFor(run);
  if (!dir) return null;
  const seed = await importShards(run, dir);
  const batch: SummaryRow[] = [];
  for (const [, row] of seed.rows) {
    batch.push({ key: row.key, summary: row.summary, replaces: true });
    if (batch.length < WRITE_BATCH) continue;
    rows.write(batch.splice(0));
    await new Promise((r) => setImmediate(r));
  }
  rows.write(batch);
  if (seed.notice) return seed.notice;
  const skipped = seed.stale + seed.invalid;
  return skipped > 0
    ? `index shards in ${dir}: ${seed.rows.size} rows taken, ${skipped} stale or invalid (summarised again)`
    : null;
}

function parseSummary(text: string): RolloutSummary | null {
  try {
    const parsed = rolloutSummarySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
