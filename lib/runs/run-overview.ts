// The per-run facts the home page and GET /api/runs list: manifest facts plus rollout and masked
// counts from the summary index (no token arrays; a cold index answers with what is done).
import type { RunLayout } from "./runs-root";
import type { IndexProgress } from "./summary-index";
import { readMetrics } from "./metrics";
import { snapshotWithHealth } from "./run-health";

export interface RunOverview {
  id: string;
  name: string;
  description: string;
  capture: "on" | "off" | null;
  builderProfile: string;
  manifestError: string | null;
  /** Rollouts with files in the token or model-call store (the rest come from records alone). */
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
  const [{ snap, health }, metrics] = await Promise.all([snapshotWithHealth(run), readMetrics(run.metricsFile)]);
  return {
    id: run.id,
    name: run.manifest.name ?? run.id,
    description: run.manifest.description ?? "",
    capture: run.manifest.capture ?? (run.tokensDir ? "on" : null),
    builderProfile: run.manifest.builder_profile ?? "seed",
    manifestError: run.manifestError,
    storeRollouts: health.from_store,
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
