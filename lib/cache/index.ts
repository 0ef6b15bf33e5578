// The process-wide bounded registry every cache of parsed files and built models lives in.
export { type BoundedCache, type CacheUnit, clearAllCaches, processCache } from "./registry";
export { shared, SHARED_KEYS } from "./shared";
