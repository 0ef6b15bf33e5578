// The store readers (token store, model-call capture store, JSONL, listings, ids), read-only and
// confined to their store. File versions (./file-version) and the per-version file cache
// (./versioned-cache) are imported by path.
import "server-only";
export * from "./rollout-id";
export * from "./jsonl";
export * from "./files";
export * from "./token-store";
export * from "./capture-store";
export * from "./exchange-error";
