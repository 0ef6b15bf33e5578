// The health route's answer: aggregates over the run's summaries, the index's progress, and the
// per-step metrics from metrics.jsonl (downsampled to at most one point per step bucket).
import { computeHealth, type HealthReport } from "@/lib/health/health";
import { readMetrics } from "./metrics";
import type { RunLayout } from "./runs-root";
import { indexFor, type IndexProgress, type IndexSnapshot } from "./summary-index";

export interface RunHealth extends HealthReport {
  run_id: string;
  progress: IndexProgress;
  metrics: Array<{ step: number; reward: number | null }>;
  metrics_unreadable: number;
  skipped_files: string[];
}

const MAX_POINTS = 1000;

/** The run's index snapshot and its health report, computed once per index generation for every caller. */
export async function snapshotWithHealth(run: RunLayout, waitMs?: number): Promise<{ snap: IndexSnapshot; health: HealthReport }> {
  const index = indexFor(run);
  const snap = await index.snapshot({ waitMs });
  const unreadableRecords = snap.unreadable_records.length;
  return { snap, health: index.memo(`health:${unreadableRecords}`, (all) => computeHealth(all, { unreadableRecords })) };
}

export async function runHealth(run: RunLayout): Promise<RunHealth> {
  const [{ snap, health }, metrics] = await Promise.all([snapshotWithHealth(run), readMetrics(run.metricsFile)]);
  const stride = Math.max(1, Math.ceil(metrics.rows.length / MAX_POINTS));
  return {
    run_id: run.id,
    ...health,
    progress: snap.progress,
    metrics: metrics.rows.filter((_, i) => i % stride === 0).map((r) => ({ step: r.step, reward: r.reward })),
    metrics_unreadable: metrics.unreadable,
    skipped_files: snap.skipped_files,
  };
}
