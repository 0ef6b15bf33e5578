// W&B offline runs (`run-<id>.wandb` and the files W&B keeps beside it), read without W&B: the
// run file's history as scalar points, its facts (ids, config, summary, exit code), and the side
// files' parsers to fill what the run file lacks. Pure: bytes and text in, results out.
export {
  mergeFacts,
  MAX_FACT_KEYS,
  MAX_VALUE_CHARS,
  type WandbFacts,
  type WandbMetadata,
  type WandbSideFacts,
} from "./facts";
export { WandbFileRefused } from "./framing";
export { parseWandbFile, type WandbRead } from "./read";
export {
  parseConfigYaml,
  parseMetadataJson,
  parseSummaryJson,
  type SideFileRead,
} from "./side-files";
