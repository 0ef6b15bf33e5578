// The parts of lib/trainer that touch no file, database or Node API: what a browser component (and the pure
// modules below it) may import. Everything else is ./index.
export { smoothEma } from "./smoothing";
export { INVESTIGATE_ABOVE, SEQUENCE_GATE } from "./mismatch";
