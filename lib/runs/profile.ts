// Which builder profile decides a run's rollouts, and the one line every page shows for why: a
// profile asked for on the page, the serve flag, run.json's builder_profile, or `auto` (the
// default) decided from the token store's evidence (lib/store/evidence). Not responsible for
// the verdicts themselves (lib/builder) nor for reading the store's files beyond that evidence.
import "server-only";
import type { Profile } from "@/lib/builder";
import { explainStoreProfile } from "@/lib/store";
import type { RunLayout } from "./root";

export interface ProfileDecision {
  profile: Profile;
  /** One line: which profile decided and why. */
  reason: string;
}

/** The profile a run's rollouts are decided by; `asked` is a page's `?profile=` (it wins). */
export async function decideRunProfile(
  run: RunLayout,
  asked?: Profile | "auto",
): Promise<ProfileDecision> {
  if (asked !== undefined && asked !== "auto")
    return { profile: asked, reason: `profile=${asked} asked for on this page` };
  const choice = asked ?? run.manifest.builder_profile ?? "auto";
  if (choice !== "auto") {
    const from = run.profileFromFlag
      ? `--profile ${choice}`
      : `builder_profile: ${choice} in run.json`;
    return { profile: choice, reason: from };
  }
  if (!run.tokensDir)
    return { profile: "seed", reason: "No token store to judge by → seed (auto)" };
  return explainStoreProfile(run.tokensDir);
}
