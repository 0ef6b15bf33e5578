// The run page's training section (GET /api/runs/{run}/trainer/training): the rollout metrics
// NeMo-RL logs per step, from whichever logger has them (TensorBoard, W&B, MLflow, metrics.jsonl),
// the run facts a logger keeps (W&B config and summary, MLflow params), and each logger found.
import { z } from "zod";

export const trainingChartSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  /** The tag the points came from ("train/truncation_rate") and the files that logged it. */
  tag: z.string(),
  sources: z.array(z.string()),
  /** How the values read: a share of samples, a count per sample, a ratio near 1, a plain value. */
  unit: z.enum(["fraction", "count", "ratio", "value"]),
  /** Steps logged, before downsampling to at most about one point per pixel. */
  steps: z.number().int().nonnegative(),
  points: z.array(z.strictObject({ step: z.number(), value: z.number().nullable() })),
});

export const loggedFactsSchema = z.strictObject({
  /** Where the facts came from ("wandb/…/run-abc.wandb", "mlflow.db run exp-a"). */
  source: z.string(),
  kind: z.enum(["config", "summary", "params", "run"]),
  entries: z.array(z.strictObject({ key: z.string(), value: z.string() })),
  /** Entries not sent (a config of thousands of keys is shown in part). */
  more: z.number().int().nonnegative(),
});

export const loggerSeenSchema = z.strictObject({
  /** The directory or file as found, relative to the log directory. */
  path: z.string(),
  logger: z.enum(["tensorboard", "wandb", "mlflow", "swanlab", "metrics.jsonl"]),
  read: z.boolean(),
  /** Why it is not read, or what was read ("3 event files"). */
  detail: z.string(),
});

export const trainingSectionSchema = z.strictObject({
  run_id: z.string(),
  /** The trainer log directory, relative to the run directory; null when the run has none. */
  trainer_logs: z.string().nullable(),
  charts: z.array(trainingChartSchema),
  facts: z.array(loggedFactsSchema),
  loggers: z.array(loggerSeenSchema),
  notes: z.array(z.string()),
});

export type TrainingChart = z.infer<typeof trainingChartSchema>;
export type LoggedFacts = z.infer<typeof loggedFactsSchema>;
export type LoggerSeen = z.infer<typeof loggerSeenSchema>;
export type TrainingSection = z.infer<typeof trainingSectionSchema>;
