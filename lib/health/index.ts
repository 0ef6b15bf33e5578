// A run's health: counts, distributions and alerts over its summary index, its files' alerts, the
// training curve, and the run page's overview.
export { runHealth, snapshotWithHealth } from "./run-health";
export { describeRoot, describeRuns, LIST_REUSE_MS } from "./run-overview";
export { type TrainingCurveView } from "./training-curve";
