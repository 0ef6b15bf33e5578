// What the summary index summarises and when a stored summary is still good: every rollout of a
// run (store files, record, or only a lock file: deleted) with its summariser input, and its row
// key — the code version, the profile and side-call patterns, each file's version, a hash of its
// record, and its attempt group. Reads no files itself (listings and records come in); keeps nothing.
import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { AttemptRef } from "@/lib/schema";
import type { FileKind, StoreListing } from "@/lib/store";
import { attemptGroups } from "@/lib/store/files";
import { versionOf } from "@/lib/store/file-version";
import { recordHash, type RolloutRecords } from "./rollout-records";
import type { RunLayout } from "./runs-root";
import type { SummarizeInput } from "./summarize";

/** Bump when a summary's shape or the builder's verdicts change: every row is recomputed. */
export const SUMMARY_VERSION = 7;
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

/**
 * Every rollout of the run (store files, record, or a deleted one's lock file) with its summariser
 * input and row key. A rollout's attempt group is in its key, so a new or deleted attempt
 * re-summarises the rest of its group (a few rows), never the run.
 */
export function keyedInputs(
  run: RunLayout,
  tokens: StoreListing | null,
  calls: StoreListing | null,
  records: RolloutRecords,
): Map<string, KeyedInput> {
  const out = new Map<string, KeyedInput>();
  const deleted = new Set(tokens?.deleted ?? []);
  const ids = new Set<string>([
    ...(tokens?.rollouts.keys() ?? []),
    ...deleted,
    ...(calls?.rollouts.keys() ?? []),
    ...records.byId.keys(),
  ]);
  // A deleted rollout whose capture file or record is still there is read from those.
  for (const id of ids) if (tokens?.rollouts.has(id)) deleted.delete(id);
  const attempts = attemptsById(ids, deleted);
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
    const group = attempts.get(id) ?? [];
    const lifecycle = [
      deleted.has(id) ? "deleted" : "",
      group.map((a) => `${a.rollout_id}${a.deleted ? "!" : ""}`).join(","),
    ];
    const key = [
      CODE_VERSION,
      profile,
      patterns.join(","),
      ...files,
      recordHash(records, id),
      ...lifecycle,
    ].join("|");
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
        deleted: deleted.has(id),
        attempts: group,
      },
    });
  }
  return out;
}

/** Each rollout of an attempt group -> the whole group in order (gym-v1-store.md §6). */
function attemptsById(
  ids: Iterable<string>,
  deleted: ReadonlySet<string>,
): Map<string, AttemptRef[]> {
  const out = new Map<string, AttemptRef[]>();
  for (const members of attemptGroups(ids).values()) {
    // A lone `-aN` whose base left no trace has no other attempt to link to.
    if (members.length < 2) continue;
    const group = members.map((id) => ({ rollout_id: id, deleted: deleted.has(id) }));
    for (const id of members) out.set(id, group);
  }
  return out;
}
