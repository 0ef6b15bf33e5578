// The summary index's SQL engine over hand-made or fixture summaries, for tests that check it
// against the in-memory reference (lib/index/query, lib/health/health): the same rows in an
// in-memory database, queried as the routes query them.
import type { HealthReport, RolloutSummary, RunManifest } from "@/lib/schema";
import type { RolloutNeighbors } from "@/lib/schema/api-progress";
import type { RolloutQuery } from "@/lib/index/query";
import { SummaryRows } from "@/lib/index/rows";
import { matchingRows, neighboursOf, policyModelOf, type RunFacts } from "@/lib/index/sql";
import { healthOfRows, lifecycleAlertsOfRows } from "@/lib/health/sql";
import { applyRunFacts, captureExpected } from "@/lib/index/run-severity";
import type { HealthExtra } from "@/lib/health/health";
import type { SummaryIndex } from "@/lib/index/run-index";

/**
 * An in-memory index database holding `summaries`, with the run's facts from `manifest`; without
 * one, facts that add no run-level warning (the summaries are served as they are).
 */
export function sqlRows(
  summaries: readonly RolloutSummary[],
  manifest?: Pick<RunManifest, "capture">,
): { rows: SummaryRows; facts: RunFacts } {
  const rows = new SummaryRows(null);
  rows.write(summaries.map((summary) => ({ summary, key: "k" })));
  const facts = manifest
    ? { policy_model: policyModelOf(rows), capture_expected: captureExpected(manifest) }
    : { policy_model: null, capture_expected: false };
  return { rows, facts };
}

/** The rows `q` selects, in its order, as served. */
export function sqlSelect(
  summaries: readonly RolloutSummary[],
  q: RolloutQuery,
  manifest?: Pick<RunManifest, "capture">,
): RolloutSummary[] {
  const { rows, facts } = sqlRows(summaries, manifest);
  return [...matchingRows(rows, q, facts)].map((s) => applyRunFacts(s, facts));
}

export function sqlNeighbours(
  summaries: readonly RolloutSummary[],
  id: string,
  q: RolloutQuery,
  manifest?: Pick<RunManifest, "capture">,
): RolloutNeighbors {
  const { rows, facts } = sqlRows(summaries, manifest);
  return neighboursOf(rows, id, q, facts);
}

/** The health report the run route computes over these summaries' rows. */
export function sqlHealth(
  summaries: readonly RolloutSummary[],
  manifest?: Pick<RunManifest, "capture">,
  extra: HealthExtra = {},
): HealthReport {
  const { rows, facts } = sqlRows(summaries, manifest);
  const h = healthOfRows(rows.handle, facts, { policyModel: facts.policy_model, ...extra });
  return { ...h, alerts: [...h.alerts, ...lifecycleAlertsOfRows(rows.handle, facts)] };
}

/** An index's summaries once a refresh (waiting up to `waitMs`) is done. */
export async function indexedSummaries(
  index: SummaryIndex,
  options: { waitMs?: number; minIntervalMs?: number } = { minIntervalMs: 0 },
): Promise<RolloutSummary[]> {
  await index.snapshot(options);
  return index.all();
}
