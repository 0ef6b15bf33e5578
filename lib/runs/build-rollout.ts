// Reads one rollout from a token store and decides its verdict: the single path the CLI, the
// routes and the summary index share, so none of them can disagree with another.
import { decideVerdict, resolveProfile, type ProfileChoice, type Verdict } from "@/lib/builder";
import { readRolloutCapture, type RolloutCapture } from "@/lib/store";

export interface BuildRolloutOptions {
  profile: ProfileChoice;
  sideCallPatterns?: readonly string[];
  signal?: AbortSignal;
}

export async function buildRollout(storeDir: string, rolloutId: string, options: BuildRolloutOptions): Promise<{ capture: RolloutCapture; verdict: Verdict }> {
  const capture = await readRolloutCapture(storeDir, rolloutId, options.signal);
  const profile = resolveProfile(options.profile, capture.snapshot.entries, capture.state !== null || capture.intents !== null);
  const verdict = decideVerdict(capture.snapshot, { profile, sideCallPatterns: options.sideCallPatterns });
  return { capture, verdict };
}
