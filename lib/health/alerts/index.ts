// The run page's alerts about a run's files, records, lifecycle and the trainer's truth check, each with
// the rollouts it names.
export { fileAlerts, fileProblems } from "./files";
export { outsideIdsAlertOf } from "./lifecycle";
export { recordAlerts } from "./records";
export { spliceAlerts } from "./splice";
export { truthAlerts } from "./truth";
