// Compares two runs: training metrics per step (reward, rolling means, difference, bootstrap
// intervals, correlation, the repeatability floor from a seed-repeat baseline, the calibrated
// verdict of ./calibrated in words), evaluation records paired by task, and capture health side by
// side. The numbers come from ./stats and ./calibrated; this module only assembles them (sides of
// several seeds: ./seed-training).
import { callsMade } from "@/lib/view";
import type { MetricsRow } from "@/lib/runs";
import type {
  CaptureSide,
  EvaluationComparison,
  HealthReport,
  RolloutSummary,
  TrainingComparison,
} from "@/lib/schema";
import { calibratedVerdict, type StepSeries } from "./calibrated";
import { compareSeedTraining, type SeedSides } from "./seed-training";
import { headline, verdictInWords } from "./verdict-text";
import {
  bootstrapMean,
  bootstrapMeanDifference,
  compareCorrelations,
  finite,
  mean,
  pairedPermutationTest,
  pearson,
  rollingMean,
  signTest,
} from "./stats";

export const ROLLING_WINDOW = 10;

/** What one side of a comparison reads: metrics, summaries and health (loaded by ./load). */
export interface RunInput {
  id: string;
  metrics: MetricsRow[];
  summaries: RolloutSummary[];
  health: HealthReport;
  unreadableRecords: number;
  /** The agents its records name (`agent_ref.name`); absent or empty when they name none. */
  agents?: readonly string[];
}

/**
 * The training comparison of a and b (each side's lead), with the seed pair (baseline vs
 * baselineAgainst) as the yardstick. `seeds`, when a side has several runs: every side's runs as
 * series, its lead first (./seed-training compares those).
 */
export function compareTraining(
  a: RunInput,
  b: RunInput,
  baseline: RunInput | null,
  baselineAgainst: RunInput | null,
  seeds?: SeedSides,
  /** The scalar compared, named in the headline (none: the headline names none). */
  scalar?: string,
): TrainingComparison | null {
  if (seeds && (seeds.a.runs.length > 1 || seeds.b.runs.length > 1))
    return compareSeedTraining(
      seeds,
      baseline && baselineAgainst
        ? { run: stepSeries(baseline), against: stepSeries(baselineAgainst) }
        : null,
      ROLLING_WINDOW,
      scalar,
    );
  const byStepB = new Map(
    b.metrics.filter((r) => r.reward !== null).map((r) => [r.step, r.reward as number]),
  );
  const shared = a.metrics.filter((r) => r.reward !== null && byStepB.has(r.step));
  if (shared.length < 3) return null;
  const ra = shared.map((r) => r.reward as number);
  const rb = shared.map((r) => byStepB.get(r.step) as number);
  const rollA = rollingMean(ra, ROLLING_WINDOW),
    rollB = rollingMean(rb, ROLLING_WINDOW);
  const diffs = ra.map((x, i) => x - (rb[i] as number)); // per step, for the difference chart
  const correlation = finite(pearson(ra, rb));
  let floor: TrainingComparison["floor"] = null;
  let baseline_diff: number | null = null;
  if (baseline && baselineAgainst) {
    const other = new Map(
      baselineAgainst.metrics
        .filter((r) => r.reward !== null)
        .map((r) => [r.step, r.reward as number]),
    );
    const pairs = baseline.metrics.filter((r) => r.reward !== null && other.has(r.step));
    if (pairs.length >= 3) {
      const x = pairs.map((r) => r.reward as number),
        y = pairs.map((r) => other.get(r.step) as number);
      const r = finite(pearson(x, y));
      if (r !== null)
        floor = {
          run: baseline.id,
          against: baselineAgainst.id,
          steps: pairs.length,
          correlation: r,
        };
      baseline_diff = mean(x) - mean(y);
    }
  }
  const diff = bootstrapMeanDifference(ra, rb);
  const test =
    floor && correlation !== null
      ? compareCorrelations(correlation, shared.length, floor.correlation, floor.steps)
      : null;
  // A perfect or undefined correlation has no finite Fisher z: no test rather than a NaN on the wire.
  const floor_test = test && Number.isFinite(test.z) && Number.isFinite(test.p) ? test : null;
  const calibrated = calibratedVerdict(
    stepSeries(a),
    stepSeries(b),
    baseline && baselineAgainst ? stepSeries(baseline) : null,
    baseline && baselineAgainst ? stepSeries(baselineAgainst) : null,
  );
  return {
    steps: shared.length,
    series: shared.map((r, i) => ({
      step: r.step,
      a: ra[i] as number,
      b: rb[i] as number,
      a_rolling: rollA[i] as number,
      b_rolling: rollB[i] as number,
      diff: diffs[i] as number,
    })),
    mean_a: bootstrapMean(ra),
    mean_b: bootstrapMean(rb),
    diff,
    baseline_diff,
    correlation,
    floor,
    floor_test,
    band: null,
    within_noise: { differs: false, within_noise: true, not_enough_evidence: null }[
      calibrated.decision
    ],
    calibrated,
    headline: headline(
      { a: a.id, b: b.id, mean_a: mean(ra), mean_b: mean(rb), scalar },
      calibrated,
    ),
    verdict: verdictInWords(a.id, b.id, calibrated, correlation, floor),
  };
}

/** A run's reward by step (steps without a reward left out). */
export const stepSeries = (run: RunInput): StepSeries => ({
  id: run.id,
  byStep: new Map(
    run.metrics.filter((r) => r.reward !== null).map((r) => [r.step, r.reward as number]),
  ),
});

function taskIndex(id: string): number | null {
  const m = /^(\d+)-\d+/.exec(id);
  return m ? Number(m[1]) : null;
}

function perTask(
  summaries: readonly RolloutSummary[],
): Map<number, { rewards: number[]; ids: string[] }> {
  const out = new Map<number, { rewards: number[]; ids: string[] }>();
  for (const s of summaries) {
    const t = taskIndex(s.rollout_id);
    if (t === null || s.reward === null) continue;
    const e = out.get(t) ?? { rewards: [], ids: [] };
    e.rewards.push(s.reward);
    e.ids.push(s.rollout_id);
    out.set(t, e);
  }
  return out;
}

function callsHistogram(
  summaries: readonly RolloutSummary[],
): Array<{ calls: number; count: number }> {
  const m = new Map<number, number>();
  for (const s of summaries) m.set(callsMade(s), (m.get(callsMade(s)) ?? 0) + 1);
  return [...m].sort((x, y) => x[0] - y[0]).map(([calls, count]) => ({ calls, count }));
}

/**
 * Why the runs' tasks cannot be paired, or null: task indices number each agent's own dataset, so
 * two runs whose records name agents, none of them shared, hold different tasks under one index.
 */
export function unpairedTasks(a: RunInput, b: RunInput): string | null {
  const [x, y] = [a.agents ?? [], b.agents ?? []];
  if (x.length === 0 || y.length === 0 || x.some((n) => y.includes(n))) return null;
  return `No evaluation comparison: the runs' records name different agents (${a.id}: ${x.join(", ")}; ${b.id}: ${y.join(", ")}), so a task index names a different task in each.`;
}

export function compareEvaluation(a: RunInput, b: RunInput): EvaluationComparison | null {
  if (unpairedTasks(a, b) !== null) return null;
  const ta = perTask(a.summaries),
    tb = perTask(b.summaries);
  const tasks = [...ta.keys()].filter((t) => tb.has(t)).sort((x, y) => x - y);
  if (tasks.length === 0) return null;
  const per_task = tasks.map((task) => {
    const x = ta.get(task)!,
      y = tb.get(task)!;
    const am = mean(x.rewards),
      bm = mean(y.rewards);
    return { task, a: am, b: bm, diff: am - bm, a_rollouts: x.ids, b_rollouts: y.ids };
  });
  const diffs = per_task.map((p) => p.diff);
  return {
    tasks: tasks.length,
    per_task,
    mean_a: mean(per_task.map((p) => p.a)),
    mean_b: mean(per_task.map((p) => p.b)),
    diff: bootstrapMean(diffs),
    sign_test: signTest(diffs),
    permutation: pairedPermutationTest(diffs),
    changed_most: [...per_task]
      .filter((p) => p.diff !== 0)
      .sort((x, y) => Math.abs(y.diff) - Math.abs(x.diff) || x.task - y.task)
      .slice(0, 10),
    calls_a: callsHistogram(a.summaries),
    calls_b: callsHistogram(b.summaries),
    mean_calls_a: a.summaries.length ? mean(a.summaries.map(callsMade)) : 0,
    mean_calls_b: b.summaries.length ? mean(b.summaries.map(callsMade)) : 0,
  };
}

export function captureSide(run: RunInput): CaptureSide {
  const h = run.health;
  const logged: Record<string, number> = {};
  for (const row of run.metrics)
    for (const [k, v] of Object.entries(row.scalars))
      if (k.startsWith("token_capture/")) logged[k] = (logged[k] ?? 0) + v;
  const incomplete = h.mask_reasons.find((r) => r.key === "capture_incomplete")?.count ?? 0;
  const unreadable = run.summaries.filter((s) => s.unreadable || s.newer_schema).length;
  return {
    rollouts: h.rollouts,
    masked: h.masked,
    masked_fraction: h.masked_fraction,
    mask_reasons: h.mask_reasons,
    capture_failures:
      incomplete +
      run.summaries.filter(
        (s) => s.dangling_intents > 0 && !s.mask_reasons.includes("capture_incomplete"),
      ).length,
    invalid_rows:
      unreadable +
      run.unreadableRecords +
      run.summaries.filter(
        (s) => s.mask_reasons.includes("build_error") && !s.unreadable && !s.newer_schema,
      ).length,
    status_codes: h.status_codes,
    failed_calls: run.summaries.reduce((n, s) => n + s.failed_calls, 0),
    cut_short: run.summaries.filter((s) => s.cut_short).length,
    logged,
    alerts: h.alerts.map((a) => ({ severity: a.severity, message: a.message })),
  };
}
