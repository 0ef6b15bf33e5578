// Every zod schema and inferred type, one file per file type (token entry, capture exchange, store
// state, rollout record, run manifest) and per API family (errors, runs, the rollout inspector).
export * from "./token-entry";
export * from "./capture-exchange";
export * from "./store-state";
export * from "./rollout-record";
export * from "./run-manifest";
export * from "./api";
export * from "./api-rollout";
export * from "./api-tokens";
export * from "./api-call-detail";
export * from "./api-runs";
export * from "./api-run-list";
export * from "./api-compare";
