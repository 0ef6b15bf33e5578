// The run's rollouts as they are served: the summary index's rows with the run-level rule applied
// (./run-severity in JS for a row, ./sql in SQL for a filter or an order, side by side in
// this folder), a page of the table, every matching row for an export, a rollout's neighbours, and
// the run's policy model. One home for "the table's rows"; the run's health is lib/health's.
import "server-only";
import type { RolloutPage, RolloutSummary, RolloutNeighbors, TextSearch } from "@/lib/schema";
import { parseTextQuery, searchTextTotals, textHitsOf } from "./search";
import { filterKey, type RolloutQuery } from "./query";
import type { RunLayout } from "@/lib/runs";
import { tokenizerNeeded } from "@/lib/text";
import { applyRunFacts, captureExpected } from "./run-severity";
import { trainerDiffersOf } from "./trainer-facts";
import { indexFor, type IndexSnapshot, type SummaryIndex } from "./run-index";
import {
  countMatching,
  matchingRows,
  neighboursOf,
  pageRows,
  policyModelOf,
  type RunFacts,
} from "./sql";

/**
 * How long a request waits for the index: the caller's wait (the snapshot's default when none)
 * for a first look, so a small run's first answer is complete; none once the index is summarising,
 * so the run page's polls during a long cold index answer at once with what is done; none for a
 * large store's periodic re-check (a 100,000-rollout store lists in seconds), so a search or a
 * sort is answered from the rows held while the re-check runs.
 */
export const waitFor = (index: SummaryIndex, waitMs?: number): number | undefined =>
  index.progress.running || index.rechecksSlowly ? 0 : waitMs;

/** The run's severity facts for the index's current generation (one GROUP BY for the policy). */
export function runFactsOf(index: SummaryIndex, run: RunLayout): RunFacts {
  return index.memo("run-facts", () => ({
    policy_model: policyModelOf(index.rows),
    capture_expected: captureExpected(run.manifest),
    trainer_differs: trainerDiffersOf(run),
  }));
}

export interface ServedSnapshot {
  snap: IndexSnapshot;
  policy_model: string | null;
}

/** The run's index brought up to date (waiting up to `waitMs`) and its policy model. */
export async function servedSnapshot(run: RunLayout, waitMs?: number): Promise<ServedSnapshot> {
  const index = indexFor(run);
  const snap = await index.snapshot({ waitMs });
  return { snap, policy_model: runFactsOf(index, run).policy_model };
}

/** Every summary as served (the run's warnings applied), in id order: for small runs (compare). */
export function servedSummaries(run: RunLayout): RolloutSummary[] {
  const index = indexFor(run);
  const facts = runFactsOf(index, run);
  return index.all().map((s) => applyRunFacts(s, facts));
}

/**
 * One window of the table's filtered, sorted rows (the count is kept per index generation). A first
 * look waits for a small run's index, and answers at once with the rows so far and the progress
 * once the count shows a large one (1,000,000 records: 0.3 s, not the full wait of 1.5 s).
 */
export async function rolloutPage(run: RunLayout, query: RolloutQuery): Promise<RolloutPage> {
  const index = indexFor(run);
  const snap = await index.snapshot({ waitMs: waitFor(index), brief: "counted" });
  const facts = runFactsOf(index, run);
  const total = index.memo(`total:${filterKey(query)}`, () =>
    countMatching(index.rows, query, facts),
  );
  const rows = index.memo(`page:${filterKey(query)}:${query.offset}:${query.limit}`, () =>
    pageRows(index.rows, query, facts, query.offset, query.limit).map((s) =>
      applyRunFacts(s, facts),
    ),
  );
  const text = query.text ? parseTextQuery(query.text) : null;
  const hits = text
    ? index.memo(`hits:${filterKey(query)}:${query.offset}:${query.limit}`, () =>
        textHitsOf(
          index.rows.handle,
          rows.map((r) => r.rollout_id),
          text,
        ),
      )
    : undefined;
  return {
    total,
    all: snap.count,
    offset: query.offset,
    rollouts: rows,
    progress: snap.progress,
    policy_model: facts.policy_model,
    ...(hits && { text_hits: hits }),
    text_search: textSearchOf(index, run),
  };
}

/** Whether the run's text can be searched: it needs a tokenizer, and rollouts with token stores. */
export function textSearchOf(index: SummaryIndex, run: RunLayout): TextSearch {
  const tokenizer = run.manifest.tokenizer ?? null;
  const indexed = index.memo("text-indexed", () => searchTextTotals(index.rows.handle).rollouts);
  const unavailable =
    tokenizer === null
      ? tokenizerNeeded("Search")
      : run.tokensDir === null
        ? "Search reads the token store, and this run has none."
        : indexed === 0 && !index.progress.running && index.count() > 0
          ? `No rollout's text could be decoded with the tokenizer ${tokenizer} (the inspector says why; a tokenizer.json over 64 MB is not used for search).`
          : null;
  return { tokenizer, indexed, unavailable };
}

/** Every row the table's filters select, in its order, as served (exports). */
export async function* servedRows(
  run: RunLayout,
  query: RolloutQuery,
  waitMs?: number,
): AsyncGenerator<RolloutSummary> {
  const index = indexFor(run);
  await index.snapshot({ waitMs });
  const facts = runFactsOf(index, run);
  for (const s of matchingRows(index.rows, query, facts)) yield applyRunFacts(s, facts);
}

/** The rollouts before and after `rolloutId` in the table's order and filters (the inspector's). */
export async function servedNeighbours(
  run: RunLayout,
  rolloutId: string,
  query: RolloutQuery,
): Promise<RolloutNeighbors> {
  const index = indexFor(run);
  await index.snapshot();
  return neighboursOf(index.rows, rolloutId, query, runFactsOf(index, run));
}
