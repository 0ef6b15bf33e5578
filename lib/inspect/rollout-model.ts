// The inspector's rollout models, cached: keyed by the profile asked for and the version of every
// file of the rollout (rolloutVersion), so a changed file is a new key; held in a bounded LRU of the
// process cache registry (retained tokens); concurrent requests share one build, and a running
// build's progress can be read without starting one (inspectProgress, for the loading page). The
// other builder profile's verdict is a second decision, made when asked (otherProfileOf), not in
// the build the page waits for. Not responsible for building a model (build-model) or for what a route sends (token-window etc.).
import "server-only";
import { createHash } from "node:crypto";
import { otherProfile, type ProfileChoice } from "@/lib/builder";
import { rolloutSourceOf, rolloutVersion } from "@/lib/rollout";
import { recordOf } from "@/lib/index";
import { decideRunProfile, type RunLayout } from "@/lib/runs";
import type { BuildProgress, OtherProfile, RolloutFacts } from "@/lib/schema";
import { otherProfileSummary } from "@/lib/view";
import { assertRolloutId, rolloutReadBytes } from "@/lib/store";
import { viewFacts } from "./build-model";
import { buildModelOffThread, decideProfileOffThread } from "./model-pool";
import { trackBuild, trackedProgress } from "./build-progress";
import type { RolloutModel } from "./model";
import { runPolicyOf } from "./run-policy";
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
/** Other-profile decisions (a few hundred bytes each), keyed like the model they compare with. */
const others = sharedBuilds<OtherProfile>("inspect.other-profile", "entries", 1_000, 1);
/** How long `?facts=1` waits for the run's summary index before answering "pending". */
const POLICY_WAIT_MS = 4_000;

export interface InspectOptions {
  profile?: ProfileChoice;
  signal?: AbortSignal;
  /**
   * "decide" (the default) waits for the other profile's verdict; "if-known" leaves
   * `other_profile` null unless it was decided before (the page: its first paint never waits).
   */
  other?: "decide" | "if-known";
}

/** The rollout's model, built once per file version and profile; shared by concurrent requests. */
export async function inspectRollout(
  run: RunLayout,
  rolloutId: string,
  options: InspectOptions = {},
): Promise<RolloutModel> {
  const at = await buildKeyOf(run, rolloutId, options.profile);
  const { key } = at;
  const model = await modelOf(run, rolloutId, at, options.signal);
  const decided = options.other === "if-known" && !others.has(key);
  const other = decided ? null : await otherProfileOf(run, rolloutId, key, model, options.signal);
  return other === null ? model : { ...model, view: { ...model.view, other_profile: other } };
}

/**
 * The rollout's model alone, for routes that read its calls or tokens (a token window, a call's
 * detail, the conversation): they never wait for the other profile's decision, a second read.
 */
export async function rolloutModel(
  run: RunLayout,
  rolloutId: string,
  options: Pick<InspectOptions, "profile" | "signal"> = {},
): Promise<RolloutModel> {
  return modelOf(run, rolloutId, await buildKeyOf(run, rolloutId, options.profile), options.signal);
}

/** The cached model under `key`, or its one build. */
function modelOf(
  run: RunLayout,
  rolloutId: string,
  { key, profile, reason, stamp }: Awaited<ReturnType<typeof buildKeyOf>>,
  signal: AbortSignal | undefined,
): Promise<RolloutModel> {
  // A running build reports its progress under its key (build-progress), for the loading page.
  // Its record is looked up here, by id, so the worker never reads all of rollouts.jsonl.
  const build = async (signal: AbortSignal) => {
    const total = await rolloutReadBytes(run.tokensDir, run.modelCallsDir, rolloutId);
    return trackBuild(key, total, async (progress) => {
      const record = await recordOf(run, rolloutId);
      return buildModelOffThread({
        run,
        rolloutId,
        profile,
        profileReason: reason,
        stamp,
        record,
        signal,
        progress,
      });
    });
  };
  return builds.get(key, build, (m) => m.weight, signal);
}

/**
 * How the other profile decides, against the model under `key`: from the other profile's model
 * when it is cached (the user switched profile), else a read and a decision without a view.
 */
function otherProfileOf(
  run: RunLayout,
  rolloutId: string,
  key: string,
  model: RolloutModel,
  signal: AbortSignal | undefined,
): Promise<OtherProfile> {
  const decide = async (sig: AbortSignal): Promise<OtherProfile> => {
    const name = otherProfile(model.view.profile);
    const theirs = await buildKeyOf(run, rolloutId, name);
    const verdict = builds.has(theirs.key)
      ? viewFacts((await modelOf(run, rolloutId, theirs, sig)).view)
      : await decideProfileOffThread(run, rolloutId, name, await recordOf(run, rolloutId), sig);
    return { ...otherProfileSummary(viewFacts(model.view), verdict), verdict };
  };
  return others.get(key, decide, () => 1, signal);
}

/**
 * What the page leaves until after its first paint (`?facts=1`): the other profile's verdict, then
 * the run's policy model, waiting a little for the run's summary index, which this may start.
 */
export async function rolloutFacts(
  run: RunLayout,
  rolloutId: string,
  options: Pick<InspectOptions, "profile" | "signal"> = {},
): Promise<RolloutFacts> {
  const at = await buildKeyOf(run, rolloutId, options.profile);
  const model = await modelOf(run, rolloutId, at, options.signal);
  const other = await otherProfileOf(run, rolloutId, at.key, model, options.signal);
  // Only now: the index reads every rollout again, and must not compete with the page's build.
  const policy = await runPolicyOf(run, POLICY_WAIT_MS);
  return { other_profile: other, ...policy };
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

/**
 * The cache key of a rollout's build: the profile that decides (asked for, the run's, or `auto`'s
 * answer for the store, lib/runs/profile) and why, the files' versions and the manifest.
 */
async function buildKeyOf(run: RunLayout, rolloutId: string, asked: ProfileChoice | undefined) {
  assertRolloutId(rolloutId);
  const [{ profile, reason }, version] = await Promise.all([
    decideRunProfile(run, asked),
    rolloutVersion(rolloutSourceOf(run), rolloutId),
  ]);
  const stamp = stampOf(run, rolloutId, version);
  // The manifest is in the key too: its side-call patterns and tokenizer shape the model.
  const key = `${profile}|${reason}|${run.dir}|${rolloutId}|${version}|${JSON.stringify(run.manifest)}`;
  return { key, profile, reason, stamp };
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
