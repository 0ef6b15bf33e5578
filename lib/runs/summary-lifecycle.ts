// A rollout's store lifecycle for its summary row (gym-v1-store.md §1, §3, §6): frozen or open, a
// retired tombstone and what it recorded, deleted (only `R.tokens.lock` left), attempts `R-aN`,
// and which entries, intents and tombstone the profile's consumer decided from (under gym-v1,
// what Gym's freeze reads). Pure over a finished read; the reading is lib/store's.
import type { Verdict } from "@/lib/builder";
import type { AttemptRef, RolloutLifecycle, RolloutSummary, TokenEntry } from "@/lib/schema";
import type { IncompleteFacts, Tombstone } from "@/lib/severity";
import type { RolloutCapture } from "@/lib/store";

/** Under gym-v1 the consumer reads the store as Gym's freeze does; the seed reader otherwise. */
const readsAsGym = (capture: RolloutCapture, v: Verdict) =>
  v.profile === "gym-v1" && (capture.snapshot.gym ?? null) !== null;

/**
 * The entries the verdict was built from, with their 1-based lines: under gym-v1 those Gym's freeze
 * kept (any integer id, a torn line dropped). Without a build (a failed freeze) the token store's
 * own read, so a row still counts the calls its file holds.
 */
export function decidedEntries(
  capture: RolloutCapture,
  v: Verdict,
): { entries: readonly TokenEntry[]; lines: readonly number[] } {
  const gym = capture.snapshot.gym;
  if (gym && readsAsGym(capture, v) && v.build !== null)
    return { entries: gym.entries, lines: capture.gymEntryLines };
  return { entries: capture.snapshot.entries, lines: capture.entryLines };
}

/**
 * The token file's read error as the profile's consumer meets it: under gym-v1 only when Gym's
 * read fails too (it keeps ids and drops torn lines the seed reader refuses), never a tombstone.
 */
export function readErrorOf(capture: RolloutCapture, v: Verdict): string | null {
  const { snapshot: snap } = capture;
  if (!readsAsGym(capture, v)) return snap.readError;
  const gym = snap.gym;
  return gym && gym.error !== null && !gym.retired ? snap.readError : null;
}

/** Intents without an entry as the profile reads them: Gym main has no `-id` cancel lines. */
export function danglingIntentsOf(capture: RolloutCapture, v: Verdict): readonly string[] {
  return readsAsGym(capture, v)
    ? capture.lifecycle.intents.dangling
    : capture.snapshot.danglingIntents;
}

/** What a retired tombstone recorded, when the profile's consumer answers it as retired. */
export function tombstoneOf(capture: RolloutCapture, v: Verdict): Tombstone | null {
  const { lifecycle: lc, snapshot, state } = capture;
  if (readsAsGym(capture, v))
    return lc.retired
      ? { frozen: lc.frozen, snapshot_id: lc.snapshotId ?? "", version: lc.storedVersion ?? 0 }
      : null;
  return snapshot.retired && state
    ? { frozen: state.frozen, snapshot_id: state.snapshot_id, version: state.version }
    : null;
}

/** Why the snapshot is incomplete, in the profile's reading of the store. */
export function incompleteOf(capture: RolloutCapture, v: Verdict): IncompleteFacts {
  const snap = capture.snapshot;
  return {
    dangling_intents: danglingIntentsOf(capture, v),
    lost_calls: (snap.incompleteMarker ?? []).filter((l) => l.trim() !== ""),
    state_flag: readsAsGym(capture, v) ? capture.lifecycle.stateIncomplete : snap.stateIncomplete,
  };
}

/**
 * The row's lifecycle from the read's Gym lifecycle (computed for every profile: it is what the
 * files say). A store with no `state.json` and no intents file has none (a seed store).
 */
export function lifecycleOf(
  capture: RolloutCapture,
  attempts: readonly AttemptRef[] = [],
): RolloutLifecycle {
  const lc = capture.lifecycle;
  const none = lc.state === "absent" && capture.intents === null;
  const state = none
    ? "none"
    : lc.state === "unreadable"
      ? "unreadable"
      : lc.retired
        ? "retired"
        : lc.frozen
          ? "frozen"
          : "open";
  return {
    state,
    tombstone: lc.retired
      ? { frozen: lc.frozen, snapshot_id: lc.snapshotId, version: lc.storedVersion }
      : null,
    snapshot_version: none ? null : lc.snapshotVersion,
    attempts: [...attempts],
  };
}

/** The lifecycle of a rollout without store files to read: deleted, or none at all. */
export function lifecycleWithoutStore(
  deleted: boolean,
  attempts: readonly AttemptRef[] = [],
): RolloutLifecycle {
  return {
    state: deleted ? "deleted" : "none",
    tombstone: null,
    snapshot_version: null,
    attempts: [...attempts],
  };
}

/** The reason a deleted rollout's row gives, in the severity model's wire form. */
export const DELETED_REASON = { code: "deleted", title: "deleted from the store" } as const;

/**
 * A rollout Gym's store deleted with nothing else left (no record, no capture file): listed, never
 * as trained. Nothing of it can be read, so nothing is claimed but that its payload is gone: it is
 * masked with the reason `deleted`, as nothing of it can reach the trainer.
 */
export function deletedSummary(
  rolloutId: string,
  attempts: readonly AttemptRef[] = [],
): RolloutSummary {
  return {
    rollout_id: rolloutId,
    source: "store",
    profile: null,
    mask_sample: true,
    mask_reasons: ["deleted"],
    error: null,
    metrics: {},
    n_calls: 0,
    chains: null,
    roots: null,
    delivered_fraction: null,
    quarantined: 0,
    side_calls: 0,
    side_call_reasons: { pattern: 0, self_calibration: 0 },
    fallbacks: {},
    torn_tail: false,
    dangling_intents: 0,
    unreadable: false,
    newer_schema: false,
    other_profile_disagrees: false,
    status_codes: {},
    error_categories: {},
    failed_calls: 0,
    cut_short: null,
    cut_short_call: null,
    main_model: null,
    oov_tokens: null,
    // The lock file is the capture's trace: no "nothing captured" warning on top.
    has_capture: true,
    severity: "masked",
    severity_reasons: [{ ...DELETED_REASON }],
    reward: null,
    step: null,
    bytes: 0,
    lifecycle: lifecycleWithoutStore(true, attempts),
  };
}
