// The inspector's rollout models, cached: keyed by the profile asked for and the version of every
// file of the rollout (rolloutVersion), so a changed file is a new key; held in a bounded LRU of the
// process cache registry (retained tokens); concurrent requests share one build, and a running
// build's progress can be read without starting one (inspectProgress, for the loading page).
// Not responsible for building a model (build-model) or for what a route sends (token-window etc.).
import "server-only";
import { createHash } from "node:crypto";
import type { ProfileChoice } from "@/lib/builder";
import { rolloutSourceOf, rolloutVersion } from "@/lib/runs/build-rollout";
import type { RunLayout } from "@/lib/runs/runs-root";
import type { BuildProgress } from "@/lib/schema/api-progress";
import { assertRolloutId, rolloutReadBytes } from "@/lib/store";
import { buildModel } from "./build-model";
import { trackBuild, trackedProgress } from "./build-progress";
import type { RolloutModel } from "./model";
import { sharedBuilds } from "./shared-builds";

/** Retained tokens across cached rollouts (a 200k-token rollout keeps about 0.2M). */
const CACHE_BOUND = 4_000_000;
/** Builds at once: each holds a large rollout's entries (hundreds of MB for 200k-token rollouts). */
const BUILD_CONCURRENCY = Math.max(1, Number(process.env.ROLLOUT_LENS_BUILD_CONCURRENCY ?? 2));
const builds = sharedBuilds<RolloutModel>(
  "inspect.rollouts",
  "tokens",
  CACHE_BOUND,
  BUILD_CONCURRENCY,
);

export interface InspectOptions {
  profile?: ProfileChoice;
  signal?: AbortSignal;
}

/** The rollout's model, built once per file version and profile; shared by concurrent requests. */
export async function inspectRollout(
  run: RunLayout,
  rolloutId: string,
  options: InspectOptions = {},
): Promise<RolloutModel> {
  const { key, profile, stamp } = await buildKeyOf(run, rolloutId, options.profile);
  // A running build reports its progress under its key (build-progress), for the loading page.
  const build = async (signal: AbortSignal) => {
    const total = await rolloutReadBytes(run.tokensDir, run.modelCallsDir, rolloutId);
    return trackBuild(key, total, (progress) =>
      buildModel({ run, rolloutId, profile, stamp, signal, progress }),
    );
  };
  return builds.get(key, build, (m) => m.weight, options.signal);
}

/**
 * How the build `inspectRollout` would use stands: cached (ready), running (bytes read, phase) or
 * not running yet (queued, with the bytes it will read). Never starts a build.
 */
export async function inspectProgress(
  run: RunLayout,
  rolloutId: string,
  options: Pick<InspectOptions, "profile"> = {},
): Promise<BuildProgress> {
  const { key } = await buildKeyOf(run, rolloutId, options.profile);
  if (builds.has(key)) return { state: "ready" };
  return (
    trackedProgress(key) ?? {
      state: "queued",
      total_bytes: await rolloutReadBytes(run.tokensDir, run.modelCallsDir, rolloutId),
    }
  );
}

/** The cache key of a rollout's build: the profile asked for, the files' versions and the manifest. */
async function buildKeyOf(run: RunLayout, rolloutId: string, asked: ProfileChoice | undefined) {
  assertRolloutId(rolloutId);
  const profile = asked ?? run.manifest.builder_profile ?? "seed";
  const version = await rolloutVersion(rolloutSourceOf(run), rolloutId);
  const stamp = stampOf(run, rolloutId, version);
  // The manifest is in the key too: its side-call patterns and tokenizer shape the model.
  const key = `${profile}|${run.dir}|${rolloutId}|${version}|${JSON.stringify(run.manifest)}`;
  return { key, profile, stamp };
}

/** The rollout's current stamp, without building it (a few stats): live pages poll it. */
export async function rolloutStamp(run: RunLayout, rolloutId: string): Promise<string> {
  assertRolloutId(rolloutId);
  return stampOf(run, rolloutId, await rolloutVersion(rolloutSourceOf(run), rolloutId));
}

/** Drops every cached rollout (benchmarks measure cold builds). */
export function clearInspectCache(): void {
  builds.clear();
}

/** A short name for the run directory, the rollout and its file versions. */
function stampOf(run: RunLayout, rolloutId: string, version: string): string {
  return createHash("sha1").update(`${run.dir}|${rolloutId}|${version}`).digest("hex").slice(0, 16);
}
