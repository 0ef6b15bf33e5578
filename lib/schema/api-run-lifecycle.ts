// A rollout's lifecycle in the token store as run views show it (docs/gym-v1-store.md §1, §6): frozen
// or open, a retired tombstone and what it recorded, deleted (only the lock file left), and the
// attempts `R-aN` of one rollout. Part of the summary contract (./api-runs); not the inspector's
// fuller lifecycle (./api-rollout lifecycleSchema).
import { z } from "zod";

const nullableNumber = z.number().nullable();

/**
 * What the token store's lifecycle files say about a rollout (docs/gym-v1-store.md §1, §6): no
 * `state.json` (none), not frozen yet (open), frozen, a retired tombstone, deleted (only its lock
 * file is left), or a `state.json` Gym's freeze cannot read (unreadable).
 */
export const lifecycleStateSchema = z.enum([
  "none",
  "open",
  "frozen",
  "retired",
  "deleted",
  "unreadable",
]);

/** One rollout of an attempt group (`R`, `R-a1`, …); a deleted one has no inspector page. */
export const attemptRefSchema = z.strictObject({ rollout_id: z.string(), deleted: z.boolean() });

/** A rollout's lifecycle in the store, as its row shows it (the verdict stays the consumer's). */
export const rolloutLifecycleSchema = z.strictObject({
  state: lifecycleStateSchema,
  /** What a retired tombstone's `state.json` recorded: the delivery it stands for. */
  tombstone: z
    .strictObject({
      frozen: z.boolean(),
      snapshot_id: z.string().nullable(),
      version: nullableNumber,
    })
    .nullable(),
  /** The version Gym's freeze would give the snapshot; null without one (no store, a failed freeze). */
  snapshot_version: nullableNumber,
  /** Every rollout of its attempt group in order (base, then `-a1`, `-a2`, …), itself included; empty without attempts. */
  attempts: z.array(attemptRefSchema),
});

/** What a summary without lifecycle facts carries: no state file, no attempts. */
export function noLifecycle(): RolloutLifecycle {
  return { state: "none", tombstone: null, snapshot_version: null, attempts: [] };
}

export type LifecycleState = z.infer<typeof lifecycleStateSchema>;
export type AttemptRef = z.infer<typeof attemptRefSchema>;
export type RolloutLifecycle = z.infer<typeof rolloutLifecycleSchema>;
