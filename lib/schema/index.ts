export * from "./token-entry";
export * from "./capture-exchange";
export * from "./store-state";
export * from "./rollout-record";
export * from "./run-manifest";
export * from "./api";
export * from "./api-rollout";
export * from "./api-runs";
