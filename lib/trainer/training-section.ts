// The run page's training section: the rollout metrics NeMo-RL logs each step (truncation and
// natural termination rates, turns and tokens per sample, the train/inference mismatch), read from
// whichever logger holds them, as step charts; the run facts its loggers keep (W&B config and
// summary, MLflow params); and every logger found, read or not. Not responsible for reading files
// (./run-scalars, ./read-logs) or for drawing (components/run/training-section).
import "server-only";
import type { LoggedFacts, LoggerSeen, TrainingChart, TrainingSection } from "@/lib/schema";
import type { RunLayout } from "@/lib/runs";
import { trainerLogsDir } from "./log-place";
import { readTrainerLogs } from "./read-logs";
import { readRunScalars } from "./run-scalars";
import { seriesFacts } from "./packed-series";
import { chartPoints, CURVE_MAX_POINTS, type ScalarSeries } from "./scalar-series";

interface MetricSpec {
  id: string;
  title: string;
  unit: TrainingChart["unit"];
  /** The tags NeMo-RL logs it under, first found wins (`train/` is its training prefix). */
  tags: readonly string[];
}

/** NeMo-RL's rollout metrics (nemo_rl/experience/rollouts.py), as its GRPO loop logs them. */
export const TRAINING_METRICS: readonly MetricSpec[] = [
  { id: "truncation", title: "Truncation rate", unit: "fraction", tags: ["truncation_rate"] },
  {
    id: "natural-termination",
    title: "Natural termination rate",
    unit: "fraction",
    tags: ["natural_termination_rate"],
  },
  {
    id: "turns",
    title: "Turns per sample",
    unit: "count",
    tags: ["avg_turns_per_sample", "mean_turns_per_sample"],
  },
  {
    id: "generated-tokens",
    title: "Generated tokens per sample",
    unit: "count",
    tags: ["mean_gen_tokens_per_sample"],
  },
  {
    id: "total-tokens",
    title: "Total tokens per sample",
    unit: "count",
    tags: ["mean_total_tokens_per_sample"],
  },
  {
    id: "mult-prob-error",
    title: "Train/inference probability error (token_mult_prob_error)",
    unit: "ratio",
    tags: ["token_mult_prob_error"],
  },
  {
    id: "gen-kl",
    title: "Generation KL error (gen_kl_error)",
    unit: "value",
    tags: ["gen_kl_error"],
  },
];

/** The series of `spec`: `train/<tag>` first (the training loop's), then the bare tag. */
function seriesOf(series: readonly ScalarSeries[], spec: MetricSpec): ScalarSeries | undefined {
  const byTag = new Map(series.map((s) => [s.tag, s]));
  for (const tag of spec.tags)
    for (const name of [`train/${tag}`, tag]) {
      const s = byTag.get(name);
      if (s && seriesFacts(s).hasValue) return s;
    }
  return undefined;
}

/** The step charts of the metrics `series` holds, each at most `maxPoints` points, gaps kept. */
export function trainingCharts(
  series: readonly ScalarSeries[],
  maxPoints = CURVE_MAX_POINTS,
): TrainingChart[] {
  const charts: TrainingChart[] = [];
  for (const spec of TRAINING_METRICS) {
    const s = seriesOf(series, spec);
    if (!s) continue;
    charts.push({
      id: spec.id,
      title: spec.title,
      unit: spec.unit,
      tag: s.tag,
      sources: s.sources,
      steps: seriesFacts(s).count,
      // Drawn from the series' facts at the default bound: its points are never made into objects.
      points:
        maxPoints === CURVE_MAX_POINTS ? seriesFacts(s).chart : chartPoints(s.points, maxPoints),
    });
  }
  return charts;
}

/** The run's training section (empty lists for a run without trainer logs). */
export async function runTraining(run: RunLayout): Promise<TrainingSection> {
  const [scalars, where] = await Promise.all([readRunScalars(run), trainerLogsDir(run)]);
  const logs = where.dir ? await readTrainerLogs(where.dir, where) : null;
  const facts: LoggedFacts[] = logs?.facts ?? [];
  const loggers: LoggerSeen[] = logs?.loggers ?? [];
  return {
    run_id: run.id,
    trainer_logs: scalars.trainer_logs,
    charts: trainingCharts(scalars.series),
    facts,
    loggers,
    notes: scalars.notes,
  };
}
