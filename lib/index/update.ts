// One update of the summary index's rows once its inputs changed: rows of rollouts that are gone
// are dropped, stale rows found and re-summarised. Plain rollouts (a record and nothing else: most
// of a large run) are found and summarised a page at a time by SQL (./plain-records), from their
// record, on this thread (no file is read); the others (store files, lock files, attempt groups)
// are keyed here and summarised on the index's worker pool. Rows are written in small batches with
// the event loop let through between them. Not responsible for when an update runs (lib/index/run-index).
import "server-only";
import type Database from "better-sqlite3";
import type { IndexProgress, RolloutRecord, RolloutSummary } from "@/lib/schema";
import { nextTurn, type StoreListing } from "@/lib/store";
import { summarizeInWorkers } from "./pool";
import {
  attemptRecordIds,
  countPlainStale,
  goneIds,
  markSpecial,
  PLAIN_KEY_SUFFIX,
  plainStalePage,
} from "./plain-records";
import { recordHashes, recordsOf } from "./record-rows";
import type { RunLayout } from "@/lib/runs";
import { recordSummary, severityOf, summarizeSafely, type SummarizeInput } from "@/lib/rollout";
import {
  hasStoreFiles,
  inputOf,
  keyOf,
  plainKeyPrefix,
  runRollouts,
  type RunRollouts,
} from "./keys";
import type { SummaryRows } from "./rows";
import { RowSink } from "./row-sink";
import { indexTextSoon } from "./search";

/** Longest stretch of work on this thread before the event loop is let through. */
const SLICE_MS = 10;
/** Rollouts looked up, keyed or written per statement. */
const BATCH = 1000;
// Store rollouts queued on the pool at once, and stand-in rows per write: what they hold lives long
// enough to reach the old generation, which V8 lets fill with garbage as the run grows (docs/benchmarks.md).
const STORE_CHUNK = 500;
const STAND_IN_BATCH = 250;

/** Brings the rows up to date with the listings and records; progress counts what is summarised. */
export async function updateRows(
  run: RunLayout,
  rows: SummaryRows,
  tokens: StoreListing | null,
  calls: StoreListing | null,
  progress: IndexProgress,
  /** Every record was summarised as it was read (./records-follow): only special ones are left. */
  followed = false,
): Promise<void> {
  const db = () => rows.handle;
  const r = rolloutsInView(run, db(), tokens, calls);
  markSpecial(db(), r.ids);
  rows.delete(goneIds(db()));
  const prefix = plainKeyPrefix(run);
  const special = await staleSpecial(rows, r);
  // After a followed read its progress goes on (one count, never started again): these rows were
  // counted as lines already.
  const counted = followed ? { ...progress } : progress;
  if (!followed) {
    const p = await countPlainStale(db, prefix);
    startProgress(progress, special.stale.length + p.stale, special.replacing.size + p.replacing);
  }
  const sink = new RowSink(rows, counted);
  if (!followed) await summarisePlain(rows, r, prefix, sink);
  await summariseSpecial(rows, r, special, sink, counted);
  // Search's trigrams of what is left, never holding the summaries up (docs/search.md).
  indexTextSoon(rows);
}

/** A pass over `total` rollouts begins (`replacing` of them have rows, shown until replaced). */
export function startProgress(progress: IndexProgress, total: number, replacing = 0): void {
  Object.assign(progress, {
    done: 0,
    total,
    running: total > 0,
    error: null,
    workers: 0,
    in_workers: 0,
    from_records: 0,
    replacing,
    records_read: null,
  });
}

/**
 * The run's rollouts as a refresh keys them: the stores' and, of the records (the database's
 * records table), those of attempt groups. A rollout with a record alone is not among them; its
 * key is its record's (./keys keyOf).
 */
export function rolloutsInView(
  run: RunLayout,
  db: Database.Database,
  tokens: StoreListing | null,
  calls: StoreListing | null,
): RunRollouts {
  const storeIds = new Set([
    ...(tokens?.rollouts.keys() ?? []),
    ...(tokens?.deleted ?? []),
    ...(calls?.rollouts.keys() ?? []),
  ]);
  return runRollouts(run, tokens, calls, attemptRecordIds(db, storeIds));
}

/** The special rollouts whose row is missing or under another key (and which of them have one). */
async function staleSpecial(rows: SummaryRows, r: RunRollouts) {
  const stale: string[] = [];
  const replacing = new Set<string>();
  const ids = [...r.ids];
  let slice = performance.now();
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const stored = rows.keysOf(batch);
    const hashes = recordHashes(rows.handle, batch);
    for (const id of batch) {
      const had = stored.get(id);
      if (had === keyOf(r, id, hashes.get(id) ?? "-")) continue;
      stale.push(id);
      if (had !== undefined) replacing.add(id);
    }
    if (performance.now() - slice > SLICE_MS) {
      await nextTurn();
      slice = performance.now();
    }
  }
  return { stale, replacing };
}

/** Records first: every stale plain rollout from its record, a page at a time in file order. */
async function summarisePlain(
  rows: SummaryRows,
  r: RunRollouts,
  prefix: string,
  sink: RowSink,
): Promise<void> {
  let slice = performance.now();
  for (let after = 0; ;) {
    const page = plainStalePage(rows.handle, prefix, after, BATCH);
    for (const p of page) {
      const record = JSON.parse(p.record) as RolloutRecord;
      const summary = await summarizeSafely(inputOf(r, p.id, record));
      sink.add(summary, prefix + p.hash + PLAIN_KEY_SUFFIX, p.had === 1);
      after = p.rid;
    }
    sink.flush();
    if (page.length < BATCH) return;
    if (performance.now() - slice > SLICE_MS) {
      await nextTurn();
      slice = performance.now();
    }
  }
}

/** The special rollouts: those with a record alone here, the store's on the worker pool. */
async function summariseSpecial(
  rows: SummaryRows,
  r: RunRollouts,
  special: { stale: string[]; replacing: Set<string> },
  sink: RowSink,
  progress: IndexProgress,
) {
  const keys = new Map<string, string>();
  const inputsOf = (ids: string[]) => {
    const records = recordsOf(rows.handle, ids);
    return ids.map((id) => {
      const rec = records.get(id);
      keys.set(id, keyOf(r, id, rec?.hash ?? "-"));
      return inputOf(r, id, rec?.record ?? null);
    });
  };
  const accept = (s: RolloutSummary) => {
    const id = s.rollout_id;
    sink.add(s, keys.get(id) as string, special.replacing.has(id));
    keys.delete(id);
  };
  // A worker's message is written in the turn it arrives: held in the sink across turns (up to
  // BATCH rows), V8's young collections moved them to the old generation, which grew with the run.
  const acceptAll = (summaries: RolloutSummary[]) => {
    for (const s of summaries) accept(s);
    sink.flush();
  };
  const fromRecord = special.stale.filter((id) => !hasStoreFiles(r, id));
  for (let i = 0; i < fromRecord.length; i += BATCH) {
    for (const input of inputsOf(fromRecord.slice(i, i + BATCH)))
      accept(await summarizeSafely(input));
    sink.flush();
    await nextTurn();
  }
  const fromStore = special.stale.filter((id) => hasStoreFiles(r, id));
  // Always on the index's worker pool, however few: summarising on this thread would block it.
  // A few thousand at a time, so the queue never holds a large store's inputs and records.
  for (let i = 0; i < fromStore.length; i += STORE_CHUNK) {
    const ids = fromStore.slice(i, i + STORE_CHUNK);
    // Records first: the first chunk stands in before its jobs start and the rest while the
    // workers read it (they would otherwise wait on this thread), all before a later chunk starts.
    if (i === 0) await standInFromRecords(rows, r, ids, special.replacing, sink);
    const [stats] = await Promise.all([
      summarizeInWorkers(r.run.dir, inputsOf(ids), acceptAll, summarizeSafely),
      i === 0 && standInFromRecords(rows, r, fromStore.slice(ids.length), special.replacing, sink),
    ]);
    progress.workers = Math.max(progress.workers, stats.workers);
    progress.in_workers += stats.inWorkers;
    sink.flush();
  }
}

/**
 * Records first: a store rollout with a record and no row yet gets its record's row now
 * (source "record", a few hundred bytes, no file read), which its store summary replaces when the
 * workers get to it. A run of 500,000 rollouts with token stores is browsable in seconds, not after
 * every store is read.
 */
async function standInFromRecords(
  rows: SummaryRows,
  r: RunRollouts,
  ids: readonly string[],
  replacing: Set<string>,
  sink: RowSink,
) {
  const fresh = ids.filter((id) => !replacing.has(id));
  for (let i = 0; i < fresh.length; i += STAND_IN_BATCH) {
    const batch = fresh.slice(i, i + STAND_IN_BATCH);
    const records = recordsOf(rows.handle, batch);
    const summaries: RolloutSummary[] = [];
    for (const id of batch) {
      const rec = records.get(id);
      if (!rec) continue;
      summaries.push(standInOf(inputOf(r, id, rec.record)));
      replacing.add(id);
    }
    sink.standIn(summaries);
    await nextTurn();
  }
}

/**
 * A store rollout's row from its record until its store is read. Its capture evidence is the
 * record's or the listing's (a token file with bytes, a state, intents or incomplete file), as
 * the store's summary will judge it (lib/rollout/facts hasCapture): a record without
 * `_ng_token_capture` is no sign that a rollout with a token store captured nothing. Its verdict
 * is pending, never the record's "trained": the store, still unread, decides what was trained.
 */
/** Every stand-in's verdict: pending ("not yet known"), made once through lib/rollout severityOf. */
const STAND_IN_VERDICT = severityOf({ mask_sample: null, mask_reasons: [], error: null });

function standInOf(input: SummarizeInput): RolloutSummary {
  const s = recordSummary(input);
  const listed =
    input.bytes > 0 ||
    (input.present ?? []).some((k) => k === "state" || k === "intents" || k === "incomplete");
  return {
    ...s,
    ...STAND_IN_VERDICT,
    has_capture: s.has_capture || listed,
  };
}
