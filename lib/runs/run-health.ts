// The health route's answer: aggregates over the run's summaries, the index's progress, and the
// per-step metrics from metrics.jsonl (downsampled to at most one point per step bucket).
import { computeHealth, type HealthReport } from "@/lib/health/health";
import { readMetrics } from "./metrics";
import type { RunLayout } from "./runs-root";
import { indexFor, type IndexProgress } from "./summary-index";

export interface RunHealth extends HealthReport {
  run_id: string;
  progress: IndexProgress;
  metrics: Array<{ step: number; reward: number | null }>;
  metrics_unreadable: number;
  skipped_files: string[];
}

const MAX_POINTS = 1000;

export async function runHealth(run: RunLayout): Promise<RunHealth> {
  const index = indexFor(run);
  const [snap, metrics] = await Promise.all([index.snapshot(), readMetrics(run.metricsFile)]);
  const unreadableRecords = snap.unreadable_records.length;
  const health = index.memo(`health:${unreadableRecords}`, (all) => computeHealth(all, { unreadableRecords }));
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
