// Compare: two runs' (or two seed groups') trainer scalars, shaped, with calibrated verdicts on
// their difference.
export { measureCalibration, measureSeedCalibration } from "./calibration";
export { compareRuns } from "./load";
export { betweenRunSd, DEFAULT_SIMULATION, seedSd } from "./simulate";
