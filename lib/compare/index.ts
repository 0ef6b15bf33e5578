// Compare: two runs' trainer scalars, shaped, with calibrated verdicts on their difference.
export { measureCalibration } from "./calibration";
export { compareRuns } from "./load";
export { betweenRunSd, DEFAULT_SIMULATION } from "./simulate";
