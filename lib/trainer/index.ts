// The trainer's own logs: TensorBoard event files, MLflow's file store, metrics.jsonl scalars, and
// NeMo-RL's train_data_step files joined to the capture token by token.
export { mismatchDistribution } from "./mismatch-distribution";
// runTally: the hotspots' one pass over the step files alone, which bench/hotspots times.
export { runTally, tokenEntries, trainerHotspots } from "./hotspots";
export { rolloutMismatch } from "./rollout-mismatch";
export {
  chooseScalar,
  readRunScalars,
  readTrainingCurve,
  rewardSeries,
  type RunScalars,
  scalarAsMetricsRows,
  sharedScalars,
} from "./run-scalars";
export { chartPoints, CURVE_MAX_POINTS, type ScalarSeries } from "./scalar-series";
export { seriesFacts } from "./packed-series";
export { runTraining, trainingCharts, TRAINING_METRICS } from "./training-section";
export { trainerLogDir, trainerTruth, trainerTruthAll } from "./truth-check";
export { isTrainerJob, runTrainerJob } from "./jobs";
export { loggedAdvantages } from "./logged-advantages";
export { rolloutTrainerDiffers } from "./rollout-differs";
