// A rollout's store lifecycle for its summary row (docs/gym-v1-store.md §1, §6): frozen or open, a
// retired tombstone and what it recorded, deleted (only `R.tokens.lock` left), attempts `R-aN`.
// Which entries, intents and tombstone the profile's consumer decided from are ./facts'
// (shared with the inspector). Pure over a finished read; reading is lib/store's.
import type { AttemptRef, RolloutLifecycle, RolloutSummary } from "@/lib/schema";
import type { RolloutCapture } from "@/lib/store";
import { hasLifecycleFiles } from "./facts";
import { noStoreFacts } from "./defaults";

/**
 * The row's lifecycle from the read's Gym lifecycle (computed for every profile: it is what the
 * files say). A store with no `state.json` and no intents file has none (a seed store).
 */
export function lifecycleOf(
  capture: RolloutCapture,
  attempts: readonly AttemptRef[] = [],
): RolloutLifecycle {
  const lc = capture.lifecycle;
  const none = !hasLifecycleFiles(capture);
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
    ...noStoreFacts(),
    fallbacks: {},
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
