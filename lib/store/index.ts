export * from "./rollout-id";
export * from "./jsonl";
export * from "./files";
export * from "./token-store";
export * from "./capture-store";
