// One run's line on the home page and in GET /api/runs: manifest facts plus rollout, masked and
// alert counts from the run's health (no token arrays; a cold index answers with what is done).
import "server-only";
import type { RunOverview } from "@/lib/schema";
import { readMetrics } from "@/lib/runs/metrics";
import type { RunLayout } from "@/lib/runs/runs-root";
import { snapshotWithHealth } from "./run-health";

export async function describeRun(run: RunLayout): Promise<RunOverview> {
  const [{ snap, health }, metrics] = await Promise.all([
    snapshotWithHealth(run),
    readMetrics(run.metricsFile),
  ]);
  return {
    id: run.id,
    name: run.manifest.name ?? run.id,
    description: run.manifest.description ?? "",
    capture: run.manifest.capture ?? (run.tokensDir ? "on" : null),
    builder_profile: run.manifest.builder_profile ?? "seed",
    manifest_error: run.manifestError,
    store_rollouts: health.from_store,
    has_rollout_records: run.rolloutsFile !== null,
    has_metrics: run.metricsFile !== null,
    rollouts: health.rollouts,
    masked: health.masked,
    masked_fraction: health.masked_fraction,
    severity: health.severity,
    reward_mean: health.reward_mean,
    alerts: health.alerts.length,
    indexing: snap.progress,
    steps: metrics.rows.length,
  };
}
