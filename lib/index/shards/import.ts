// Seeds the summary index from a shard set (`rollout-lens index --shard`, ./set): a shard's row
// is taken only when its key equals the key the index computes now for that rollout (same build,
// profile, side-call patterns, file versions, record and attempt group) and its summary is valid;
// every other row is stale and its rollout is summarised again. A shard set that cannot be used
// is a notice, never a failure of the run. Holds nothing (the server's keys come from its records
// table, not the records held in memory); the index keeps what it takes.
import "server-only";
import { existsSync } from "node:fs";
import path from "node:path";
import { rolloutSummarySchema, searchTextSchema } from "@/lib/schema";
import { type IndexedSummary, searchTextOfJson } from "@/lib/rollout";
import type { RunLayout } from "@/lib/runs";
import { listRunInputs } from "./write";
import { nextTurn, type StoreListing } from "@/lib/store";
import { rolloutsInView } from "../update";
import { recordHashes } from "../record-rows";
import { readShardDir, shardSetRows, type ShardSet } from "./set";
import type { ShardRow } from "./file";
import { CURRENT_KEY_PREFIX, keyOf } from "../keys";
import type { SummaryRows } from "../rows";

/** The variable naming the directory that holds each run's shards, in `<dir>/<run id>/`. */
export const SHARDS_ENV = "ROLLOUT_LENS_SHARDS";
/** Shard rows keyed, checked and written at a time, with the event loop let through between. */
const SLICE_ROWS = 500;

export interface ShardImport {
  /** Rows taken: their key is the one the index computes now and their summary is valid. */
  taken: number;
  /** Rows whose key no longer matches the store, or whose rollout is gone. */
  stale: number;
  /** Rows that are not a valid summary of their rollout. */
  invalid: number;
  /** Why the shard set was not used at all (bad set, another build), or null. */
  notice: string | null;
}

export interface TakenRow {
  id: string;
  key: string;
  summary: IndexedSummary;
}

/** The keys the index computes now for `ids`; an id absent is a rollout the run no longer has. */
export type KeysOf = (ids: readonly string[]) => ReadonlyMap<string, string>;

/** Where taken rows go, a slice at a time; `drop` takes back every one when the set turns bad. */
export interface ShardSink {
  take(rows: TakenRow[]): void;
  drop(ids: string[]): void;
}

/** KeysOf over keyed inputs held in memory (./shard-index listRunInputs). */
export function keysIn(inputs: ReadonlyMap<string, { key: string }>): KeysOf {
  return (ids) => {
    const out = new Map<string, string>();
    for (const id of ids) {
      const key = inputs.get(id)?.key;
      if (key !== undefined) out.set(id, key);
    }
    return out;
  };
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
 * Gives `sink` the rows of the shard set at `where` (a directory of shards or one merged file) whose
 * key is the one `keysOf` gives now, a slice of SLICE_ROWS at a time with the event loop let through
 * between: nothing of the set is held. A set found bad halfway is not trusted in part: the rows
 * read before the fault are dropped again (their ids read once more, not held meanwhile).
 */
export async function seedFromShards(
  where: string,
  keysOf: KeysOf,
  sink: ShardSink,
  keyPrefix: string = CURRENT_KEY_PREFIX,
): Promise<ShardImport> {
  const out: ShardImport = { taken: 0, stale: 0, invalid: 0, notice: null };
  const slice: ShardRow[] = [];
  const flush = () => {
    const keys = keysOf(slice.map((row) => row.id));
    const taken: TakenRow[] = [];
    for (const row of slice.splice(0)) {
      if (keys.get(row.id) !== row.key) out.stale++;
      else {
        const summary = parseSummary(row.summary);
        if (summary?.rollout_id !== row.id) out.invalid++;
        else taken.push({ id: row.id, key: row.key, summary });
      }
    }
    sink.take(taken);
    out.taken += taken.length;
  };
  let set: ShardSet | null = null;
  try {
    set = readShardDir(where);
    if (set.keyPrefix !== keyPrefix) {
      out.stale = set.rows;
      out.notice = `index shards in ${where} were summarised by build ${set.keyPrefix.slice(0, -1)}, this is ${keyPrefix.slice(0, -1)}: not used`;
      return out;
    }
    for (const row of shardSetRows(set)) {
      slice.push(row);
      if (slice.length < SLICE_ROWS) continue;
      flush();
      await nextTurn();
    }
    flush();
  } catch (err) {
    if (set && out.taken > 0) dropRead(set, sink);
    return {
      taken: 0,
      stale: 0,
      invalid: 0,
      notice: `index shards not used: ${(err as Error).message}`,
    };
  }
  return out;
}

/** A sink that keeps the rows taken in a map, by rollout id (tests, tools). */
export function mapSink(): ShardSink & { rows: Map<string, TakenRow> } {
  const rows = new Map<string, TakenRow>();
  return {
    rows,
    take: (taken) => taken.forEach((t) => rows.set(t.id, t)),
    drop: (ids) => ids.forEach((id) => rows.delete(id)),
  };
}

/** Drops the rows of `set` up to the one that made it bad (the rows taken are among them). */
function dropRead(set: ShardSet, sink: ShardSink): void {
  let ids: string[] = [];
  try {
    for (const row of shardSetRows(set)) {
      ids.push(row.id);
      if (ids.length < SLICE_ROWS) continue;
      sink.drop(ids);
      ids = [];
    }
  } catch {
    // The fault again: every row before it is read.
  }
  sink.drop(ids);
}

/** seedFromShards for a run, listing its store and records first, into a map (tests, tools). */
export async function importShards(
  run: RunLayout,
  where: string,
): Promise<ShardImport & { rows: Map<string, TakenRow> }> {
  const { inputs } = await listRunInputs(run);
  const sink = mapSink();
  return { ...(await seedFromShards(where, keysIn(inputs), sink)), rows: sink.rows };
}

/**
 * Seeds the index's database from the run's shard set, when `$ROLLOUT_LENS_SHARDS/<run id>` holds
 * one: its rows the index's keys still agree with are written as they are, so the refresh that
 * follows finds them current and summarises only the rest. Returns what to tell the operator (a
 * set not used, rows found stale), or null when there is nothing to say.
 */
export async function seedIndexFromShards(
  run: RunLayout,
  rows: SummaryRows,
  tokens: StoreListing | null,
  calls: StoreListing | null,
): Promise<string | null> {
  const dir = shardDirFor(run);
  if (!dir) return null;
  // The keys a refresh computes, from the listings and the records table: no record is held.
  const r = rolloutsInView(run, rows.handle, tokens, calls);
  const keysOf: KeysOf = (ids) => {
    const hashes = recordHashes(rows.handle, ids);
    const keys = new Map<string, string>();
    for (const id of ids)
      if (r.ids.has(id) || hashes.has(id)) keys.set(id, keyOf(r, id, hashes.get(id) ?? "-"));
    return keys;
  };
  const seed = await seedFromShards(dir, keysOf, {
    take: (taken) =>
      rows.write(taken.map(({ key, summary }) => ({ key, summary, replaces: true }))),
    drop: (ids) => rows.delete(ids),
  });
  if (seed.notice) return seed.notice;
  const skipped = seed.stale + seed.invalid;
  return skipped > 0
    ? `index shards in ${dir}: ${seed.taken} rows taken, ${skipped} stale or invalid (summarised again)`
    : null;
}

/** A shard row's summary, with the search text its shard kept beside it (absent: none decoded). */
function parseSummary(text: string): IndexedSummary | null {
  try {
    const { search_text, ...rest } = JSON.parse(text) as Record<string, unknown>;
    const summary = rolloutSummarySchema.safeParse(rest);
    if (!summary.success) return null;
    if (search_text === undefined) return summary.data;
    const searchText = searchTextSchema.nullable().safeParse(search_text);
    if (!searchText.success) return null;
    return { ...summary.data, search_text: searchText.data && searchTextOfJson(searchText.data) };
  } catch {
    return null;
  }
}
