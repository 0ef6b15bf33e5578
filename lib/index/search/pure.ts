// The parts of text search a browser component may import (through lib/index/pure): the query
// parser, which touches no file, database or Node API. Everything else is ./index.
export { parseTextQuery, type TextQuery } from "./parse";
