// The parts of lib/health that touch no file, database or Node API: what a browser component (and the pure
// modules below it) may import. Everything else is ./index.
export {
  indexState,
  type IndexState,
  isSettled,
  noAlertsClaim,
  noAlertsWords,
  pollDelayMs,
  progressWords,
  tableCountWords,
} from "./index-state";
export { captureOffLine, curveSource, recordsSource } from "./number-sources";
export {
  isPartial,
  isSettling,
  overviewCells,
  overviewIndexState,
  partialAlerts,
} from "./overview-cells";
export { reasonTitleSeverity } from "./reason-severity";
