// The kinds of file a store holds for a rollout, by name suffix (docs/capture-format.md §1, §3,
// §9.1): token store and model-call capture files alike, since both may share one directory.
import type { FileStat } from "./file-version";

export const SUFFIXES = {
  tokens: ".tokens.jsonl",
  incomplete: ".tokens.incomplete",
  intents: ".tokens.intents",
  state: ".tokens.state.json",
  capture: ".capture.jsonl",
  captureIncomplete: ".capture.incomplete",
} as const;

export type FileKind = keyof typeof SUFFIXES;

/** Every kind, in SUFFIXES' order: the order a listing keeps a rollout's files in. */
export const FILE_KINDS = Object.keys(SUFFIXES) as FileKind[];

/** A rollout's files in a listing: each kind present, with its stat (null when none was taken). */
export type RolloutFiles = Partial<Record<FileKind, FileStat | null>>;
