// What the summary index summarises and when a stored summary is still good: every rollout of a
// run (store files or record) with its summariser input, and its row key — the code version, the
// profile and side-call patterns, each file's version and a hash of its record. Reads no files
// itself (listings and records come in) and keeps nothing.
import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { FileKind, StoreListing } from "@/lib/store";
import { versionOf } from "@/lib/store/file-version";
import { recordHash, type RolloutRecords } from "./rollout-records";
import type { RunLayout } from "./runs-root";
import type { SummarizeInput } from "./summarize";

/** Bump when a summary's shape or the builder's verdicts change: every row is recomputed. */
export const SUMMARY_VERSION = 4;
/**
 * Rows are also keyed by the app build (Next's BUILD_ID), so a rebuilt app never serves summaries
 * an older builder computed; a restart of the same build re-opens the index instantly.
 */
export const CODE_VERSION = (() => {
  try {
    return `${SUMMARY_VERSION}:${readFileSync(path.join(/*turbopackIgnore: true*/ process.cwd(), ".next", "BUILD_ID"), "utf8").trim()}`;
  } catch {
    return `${SUMMARY_VERSION}:dev`;
  }
})();

/** Every key this build writes starts with it; rows that do not are another build's. */
export const CURRENT_KEY_PREFIX = `${CODE_VERSION}|`;

export interface KeyedInput {
  input: SummarizeInput;
  key: string;
}

/** Every rollout of the run (store files or record) with its summariser input and row key. */
export function keyedInputs(
  run: RunLayout,
  tokens: StoreListing | null,
  calls: StoreListing | null,
  records: RolloutRecords,
): Map<string, KeyedInput> {
  const out = new Map<string, KeyedInput>();
  const ids = new Set<string>([
    ...(tokens?.rollouts.keys() ?? []),
    ...(calls?.rollouts.keys() ?? []),
    ...records.byId.keys(),
  ]);
  const patterns = run.manifest.side_call_patterns ?? [];
  const profile = run.manifest.builder_profile ?? "seed";
  for (const id of ids) {
    const f = { ...(calls?.rollouts.get(id) ?? {}), ...(tokens?.rollouts.get(id) ?? {}) };
    const hasStoreFiles =
      f.tokens !== undefined ||
      f.incomplete !== undefined ||
      f.intents !== undefined ||
      f.state !== undefined ||
      f.capture !== undefined;
    const files = [f.tokens, f.incomplete, f.intents, f.state, f.capture].map(versionOf);
    const key = [CODE_VERSION, profile, patterns.join(","), ...files, recordHash(records, id)].join(
      "|",
    );
    out.set(id, {
      key,
      input: {
        rolloutId: id,
        tokensDir: run.tokensDir,
        modelCallsDir: run.modelCallsDir,
        profile,
        sideCallPatterns: patterns,
        record: records.byId.get(id) ?? null,
        bytes: f.tokens?.size ?? 0,
        hasStoreFiles,
        present: Object.keys(f) as FileKind[],
      },
    });
  }
  return out;
}
