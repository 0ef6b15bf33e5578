// What the summary index summarises and when a stored summary is still good: every rollout of a
// run (store files, record, or only a lock file: deleted), its row key — the code version, the
// profile and side-call patterns, each file's version, a hash of its record, and its attempt
// group — and its summariser input. Reads no files itself (listings and record ids come in).
import "server-only";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { AttemptRef, RolloutRecord } from "@/lib/schema";
import { type FileKind, type StoreListing, attemptGroups, attemptOf, versionOf } from "@/lib/store";
import { recordHash, type RolloutRecords, type RunLayout } from "@/lib/runs";
import type { SummarizeInput } from "@/lib/rollout";

/** Bump when a summary's shape or the builder's verdicts change: every row is recomputed. */
export const SUMMARY_VERSION = 11;
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

/** A run's rollouts as the index sees them in one refresh: ids, listings, attempt groups. */
export interface RunRollouts {
  run: RunLayout;
  tokens: StoreListing | null;
  calls: StoreListing | null;
  /** Every rollout id: store files, a deleted one's lock file, or a record. */
  ids: Set<string>;
  deleted: Set<string>;
  attempts: Map<string, AttemptRef[]>;
}

/**
 * Every rollout of the run (store files, a deleted one's lock file, a record). A rollout's attempt
 * group is in its key, so a new or deleted attempt re-summarises the rest of its group (a few
 * rows), never the run.
 */
export function runRollouts(
  run: RunLayout,
  tokens: StoreListing | null,
  calls: StoreListing | null,
  recordIds: Iterable<string>,
): RunRollouts {
  const deleted = new Set(tokens?.deleted ?? []);
  const ids = new Set<string>([
    ...(tokens?.rollouts.keys() ?? []),
    ...deleted,
    ...(calls?.rollouts.keys() ?? []),
  ]);
  for (const id of recordIds) ids.add(id);
  // A deleted rollout whose capture file or record is still there is read from those.
  for (const id of ids) if (tokens?.rollouts.has(id)) deleted.delete(id);
  return { run, tokens, calls, ids, deleted, attempts: attemptsById(ids, deleted) };
}

const filesOf = (r: RunRollouts, id: string) => ({
  ...(r.calls?.rollouts.get(id) ?? {}),
  ...(r.tokens?.rollouts.get(id) ?? {}),
});

/** Whether the rollout has any file in the token or capture store (else its record alone). */
export function hasStoreFiles(r: RunRollouts, id: string): boolean {
  const f = filesOf(r, id);
  return (
    f.tokens !== undefined ||
    f.incomplete !== undefined ||
    f.intents !== undefined ||
    f.state !== undefined ||
    f.capture !== undefined
  );
}

/** The row key of `id`: `recordHash` is its record's hash, "-" without one. */
export function keyOf(r: RunRollouts, id: string, recordHash: string): string {
  const f = filesOf(r, id);
  const files = [f.tokens, f.incomplete, f.intents, f.state, f.capture].map(versionOf);
  const group = r.attempts.get(id) ?? [];
  const lifecycle = [
    r.deleted.has(id) ? "deleted" : "",
    group.map((a) => `${a.rollout_id}${a.deleted ? "!" : ""}`).join(","),
  ];
  const patterns = r.run.manifest.side_call_patterns ?? [];
  const profile = r.run.manifest.builder_profile ?? "auto";
  return [CODE_VERSION, profile, patterns.join(","), ...files, recordHash, ...lifecycle].join("|");
}

/**
 * The start of the key of a rollout with a record and nothing else (no store files, not deleted,
 * no attempt group): `keyOf` gives such a rollout this prefix, its record hash and "||".
 */
export function plainKeyPrefix(run: RunLayout): string {
  const patterns = run.manifest.side_call_patterns ?? [];
  const profile = run.manifest.builder_profile ?? "auto";
  return [CODE_VERSION, profile, patterns.join(","), "-", "-", "-", "-", "-", ""].join("|");
}

/** The summariser's input for `id`. */
export function inputOf(r: RunRollouts, id: string, record: RolloutRecord | null): SummarizeInput {
  const f = filesOf(r, id);
  return {
    rolloutId: id,
    tokensDir: r.run.tokensDir,
    modelCallsDir: r.run.modelCallsDir,
    profile: r.run.manifest.builder_profile ?? "auto",
    sideCallPatterns: r.run.manifest.side_call_patterns ?? [],
    record,
    bytes: f.tokens?.size ?? 0,
    hasStoreFiles: hasStoreFiles(r, id),
    present: Object.keys(f) as FileKind[],
    deleted: r.deleted.has(id),
    attempts: r.attempts.get(id) ?? [],
    tokenizer: r.run.manifest.tokenizer
      ? { runDir: r.run.dir, name: r.run.manifest.tokenizer, root: r.run.root }
      : null,
  };
}

export interface KeyedInput {
  input: SummarizeInput;
  key: string;
}

/** Every rollout of the run with its summariser input and row key, from records held in memory. */
export function keyedInputs(
  run: RunLayout,
  tokens: StoreListing | null,
  calls: StoreListing | null,
  records: RolloutRecords,
): Map<string, KeyedInput> {
  return keyedInputsOf(runRollouts(run, tokens, calls, recordIdsOf(records)), records);
}

/** Every record's id, those a filter set aside included (./rollout-records RecordFilter). */
export function recordIdsOf(records: RolloutRecords): string[] {
  return [...records.byId.keys(), ...records.others];
}

/** The rollouts of `r` that `keep` accepts (a shard's), keyed with every rollout in view. */
export function keyedInputsOf(
  r: RunRollouts,
  records: RolloutRecords,
  keep: (id: string) => boolean = () => true,
): Map<string, KeyedInput> {
  const out = new Map<string, KeyedInput>();
  for (const id of r.ids) {
    if (!keep(id)) continue;
    out.set(id, {
      key: keyOf(r, id, recordHash(records, id)),
      input: inputOf(r, id, records.byId.get(id) ?? null),
    });
  }
  return out;
}

/**
 * A fingerprint of everything every row key is made of except the records' hashes: the code
 * version, profile and patterns, and every store file's version. With the records file's version
 * beside it, an unchanged fingerprint means no row can be stale, so a refresh skips the key pass.
 */
export function inputsFingerprint(
  run: RunLayout,
  tokens: StoreListing | null,
  calls: StoreListing | null,
  recordsVersion: string,
): string {
  const h = createHash("sha1");
  const profile = run.manifest.builder_profile ?? "auto";
  h.update(
    `${CODE_VERSION}|${profile}|${(run.manifest.side_call_patterns ?? []).join(",")}|${recordsVersion}\n`,
  );
  for (const listing of [tokens, calls]) {
    h.update(`listing ${listing?.dir ?? "-"}\n${(listing?.deleted ?? []).join(",")}\n`);
    for (const [id, f] of listing?.rollouts ?? [])
      h.update(
        `${id}|${[f.tokens, f.incomplete, f.intents, f.state, f.capture].map(versionOf).join("|")}\n`,
      );
  }
  return h.digest("hex");
}

/** Each rollout of an attempt group -> the whole group in order (docs/gym-v1-store.md §6). */
function attemptsById(
  ids: ReadonlySet<string>,
  deleted: ReadonlySet<string>,
): Map<string, AttemptRef[]> {
  const out = new Map<string, AttemptRef[]>();
  // Only `-aN` ids and their bases can be in a group: the rest (most of a run) are left out, so a
  // run of a million rollouts is not copied into another set.
  const candidates = new Set<string>();
  for (const id of ids) {
    const a = attemptOf(id);
    if (!a) continue;
    candidates.add(id);
    if (ids.has(a.base)) candidates.add(a.base);
  }
  for (const members of attemptGroups(candidates).values()) {
    // A lone `-aN` whose base left no trace has no other attempt to link to.
    if (members.length < 2) continue;
    const group = members.map((id) => ({ rollout_id: id, deleted: deleted.has(id) }));
    for (const id of members) out.set(id, group);
  }
  return out;
}
