// The parts of lib/store that touch no file, database or Node API: what a browser component (and the pure
// modules below it) may import. Everything else is ./index.
export { errorSummary, readErrorBody } from "./exchange-error";
export { compareIds } from "./rollout-id";
export { describeZodError } from "./zod-message";
