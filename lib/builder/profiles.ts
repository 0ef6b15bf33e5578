// Builder profiles: `seed` is the side-call PR's builder (docs/builder.md, the default); `gym-v1` is
// Gym main of Aug 2026 (docs/builder.md §2, docs/capture-format.md §8.4). `auto` picks gym-v1 for schema_version records.
import type { TokenEntry } from "@/lib/schema";
import type { BuilderOptions } from "./types";

export type Profile = "seed" | "gym-v1";
export type ProfileChoice = Profile | "auto";
export const PROFILES: readonly Profile[] = ["seed", "gym-v1"];

/** What each profile is, in a few words beside its name (a user does not know "seed"). */
export const PROFILE_MEANING: Record<Profile, string> = {
  seed: "the side-call pull request's builder",
  "gym-v1": "Gym main's builder, as trainers run it",
};

export const PROFILE_OPTIONS: Record<Profile, BuilderOptions> = {
  seed: {
    recordedParents: true,
    dropEmptyGenerations: false,
    retryKeep: "any_child",
    walk: "depth_first",
    mainRule: "generated_mass",
  },
  "gym-v1": {
    recordedParents: false,
    dropEmptyGenerations: true,
    retryKeep: "non_quarantined_child",
    walk: "leaves",
    mainRule: "earliest_root",
  },
};

/**
 * `auto` from one rollout's evidence: gym-v1 when any record carries schema_version or the store
 * keeps files only Gym main's store writes; otherwise seed. Reading a store, `auto` is decided per
 * directory instead (lib/store/evidence); this is for entries with no directory.
 */
export function resolveProfile(
  choice: ProfileChoice,
  entries: readonly TokenEntry[],
  gymStoreFiles = false,
): Profile {
  if (choice !== "auto") return choice;
  return gymStoreFiles || entries.some((e) => e.schema_version !== undefined) ? "gym-v1" : "seed";
}

export function otherProfile(profile: Profile): Profile {
  return profile === "seed" ? "gym-v1" : "seed";
}
