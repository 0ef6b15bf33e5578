// The parts of lib/index that touch no file, database or Node API: what a browser component (and the pure
// modules below it) may import. Everything else is ./index.
export { rolloutQuerySchema } from "./query";
export { parseTextQuery, type TextQuery } from "./search/pure";
