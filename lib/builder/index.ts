export * from "./types";
export * from "./digest";
export * from "./round";
export * from "./side-calls";
export * from "./prefix-merging";
export * from "./per-request";
export * from "./flatten";
export * from "./projection";
export * from "./profiles";
export * from "./verdict";
export * from "./gym-v1-verdict";
export * from "./report";
export * from "./code-points";
export { noteSharedPrefix } from "./digest-ahead";
export { ParentPrehash } from "./parent-prehash";
export {
  findPrefixBreaks,
  spliceFactsOf,
  type SpliceBreak,
  type SpliceFacts,
} from "./prefix-breaks";
export { rolloutLedger } from "./ledger";
