// The per-run facts the home page and GET /api/runs list: manifest facts plus rollout and masked
// counts from the summary index (no token arrays; a cold index answers with what is done).
import { listStore } from "@/lib/store";
import { computeHealth } from "@/lib/health/health";
import type { RunLayout } from "./runs-root";
import { indexFor, type IndexProgress } from "./summary-index";
import { readMetrics } from "./metrics";

export interface RunOverview {
  id: string;
  name: string;
  description: string;
  capture: "on" | "off" | null;
  builderProfile: string;
  manifestError: string | null;
  /** Rollouts with files in the token store. */
  storeRollouts: number;
  hasRolloutRecords: boolean;
  hasMetrics: boolean;
  rollouts: number;
  masked: number;
  masked_fraction: number;
  reward_mean: number | null;
  alerts: number;
  indexing: IndexProgress;
  /** Training steps in metrics.jsonl. */
  steps: number;
}

export async function describeRun(run: RunLayout): Promise<RunOverview> {
  const [snap, metrics] = await Promise.all([indexFor(run).snapshot(), readMetrics(run.metricsFile)]);
  const health = computeHealth(snap.summaries, { unreadableRecords: snap.unreadable_records.length });
  const listing = run.tokensDir ? await listStore(run.tokensDir) : null;
  let storeRollouts = 0;
  for (const files of listing?.rollouts.values() ?? []) {
    if (files.tokens !== undefined || files.incomplete !== undefined || files.intents !== undefined || files.state !== undefined) storeRollouts++;
  }
  return {
    id: run.id,
    name: run.manifest.name ?? run.id,
    description: run.manifest.description ?? "",
    capture: run.manifest.capture ?? (run.tokensDir ? "on" : null),
    builderProfile: run.manifest.builder_profile ?? "seed",
    manifestError: run.manifestError,
    storeRollouts,
    hasRolloutRecords: run.rolloutsFile !== null,
    hasMetrics: run.metricsFile !== null,
    rollouts: health.rollouts,
    masked: health.masked,
    masked_fraction: health.masked_fraction,
    reward_mean: health.reward_mean,
    alerts: health.alerts.length,
    indexing: snap.progress,
    steps: metrics.rows.length,
  };
}
