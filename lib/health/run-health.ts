// A run's health as its route and page show it: the aggregates over the summary index's current
// summaries (computed once per index generation), the index's progress, and reward per step from
// metrics.jsonl downsampled to at most MAX_POINTS. Reads nothing itself; lib/runs does.
import "server-only";
import type { HealthReport, RunHealth } from "@/lib/schema";
import { readMetrics } from "@/lib/runs/metrics";
import type { RunLayout } from "@/lib/runs/runs-root";
import { indexFor, type IndexSnapshot } from "@/lib/runs/summary-index";
import { computeHealth } from "./health";

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
    ...health,
    run_id: run.id,
    progress: snap.progress,
    metrics: metrics.rows.filter((_, i) => i % stride === 0).map((r) => ({ step: r.step, reward: r.reward })),
    metrics_unreadable: metrics.unreadable,
    skipped_files: snap.skipped_files,
  };
}
