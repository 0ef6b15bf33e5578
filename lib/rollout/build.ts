// Reads one rollout and decides its verdict: the single read → resolve profile → decide path that
// the CLI, the summary index and the inspector share, so none of them can disagree with another.
// Reads the token store and, when given, the model-call store; the rollout's record is the caller's
// to give (never read here: rollouts.jsonl may hold a million). Keeps nothing (callers cache what
// they derive) and builds no views.
import "server-only";
import {
  decideVerdict,
  otherProfile,
  resolveProfile,
  type Profile,
  type ProfileChoice,
  type Verdict,
  ParentPrehash,
} from "@/lib/builder";
import type { RolloutRecord } from "@/lib/schema";
import {
  assertRolloutId,
  readCaptureStore,
  readRolloutCapture,
  storePath,
  type CaptureRead,
  type FileKind,
  type ReadProgress,
  type RolloutCapture,
  fileVersion,
  emptyLifecycle,
  storeProfile,
} from "@/lib/store";
import type { RunLayout } from "@/lib/runs";

/** Where a rollout's files are. A bare string is a token store directory alone (the CLI). */
export interface RolloutSource {
  tokensDir: string | null;
  /** The model-call capture store; not read when absent. */
  modelCallsDir?: string | null;
  /** rollouts.jsonl: only its version is read here (rolloutVersion), never its records. */
  rolloutsFile?: string | null;
  /** The rollout's record, looked up by the caller (the summary index's records table); none if absent. */
  record?: RolloutRecord | null;
  /** Why the record could not be read (an unreadable rollouts.jsonl): the build's issues say so. */
  recordError?: string | null;
  /** The rollout's files as a directory listing found them; files not in it are not opened. */
  present?: ReadonlySet<FileKind>;
}

export interface BuildRolloutOptions {
  profile: ProfileChoice;
  sideCallPatterns?: readonly string[];
  signal?: AbortSignal;
  /** Also decide the other profile's verdict (the disagreement check of summaries and the inspector). */
  decideOther?: boolean;
  /** Told the bytes of the token and capture files as they are read (lib/store ReadProgress). */
  onProgress?: ReadProgress;
  /**
   * What `auto` means for this store directory, when the caller resolved it already; otherwise it
   * is resolved here from the whole directory (lib/store/evidence), never from one file.
   */
  storeProfile?: Profile;
}

export interface BuiltRollout {
  /** The token store read: entries with their 1-based lines (`entryLines`), side files and issues. */
  capture: RolloutCapture;
  /** The model-call store read; null when the source names no model-call store. */
  captureStore: CaptureRead | null;
  record: RolloutRecord | null;
  /** Something of the rollout exists: a token or side file, a capture file, or a record. */
  found: boolean;
  profile: Profile;
  verdict: Verdict;
  /** The other profile's verdict, when `decideOther` was asked. */
  other: Verdict | null;
}

/** A run's files as a rollout source (token store, model-call store, rollouts.jsonl). */
export function rolloutSourceOf(run: RunLayout): RolloutSource {
  return {
    tokensDir: run.tokensDir,
    modelCallsDir: run.modelCallsDir,
    rolloutsFile: run.rolloutsFile,
  };
}

export async function buildRollout(
  where: string | RolloutSource,
  rolloutId: string,
  options: BuildRolloutOptions,
): Promise<BuiltRollout> {
  assertRolloutId(rolloutId);
  const source: RolloutSource = typeof where === "string" ? { tokensDir: where } : where;
  const { signal, onProgress } = options;
  // The parent digests the build verifies are hashed on the thread pool while the file is read.
  const prehash = new ParentPrehash();
  const capture = source.tokensDir
    ? await readRolloutCapture(
        source.tokensDir,
        rolloutId,
        signal,
        source.present,
        onProgress,
        "scan",
        (e) => prehash.add(e),
      )
    : emptyCapture(rolloutId);
  const captureStore = source.modelCallsDir
    ? await readCaptureStore(source.modelCallsDir, rolloutId, signal, source.present, onProgress)
    : null;
  const record = source.record ?? null;
  // An unreadable rollouts.jsonl costs the rollout its reward and step, not its view: say so.
  if (source.recordError) {
    const message = `${source.recordError}: the rollout's record (reward, step) could not be read`;
    capture.issues = [
      ...capture.issues,
      { file: "rollouts.jsonl", line: null, severity: "error", message },
    ];
  }
  signal?.throwIfAborted();
  const { snapshot } = capture;
  const found =
    capture.hasTokenFile ||
    capture.intents !== null ||
    capture.state !== null ||
    snapshot.incompleteMarker !== null ||
    (captureStore?.exists ?? false) ||
    record !== null;
  // `auto` is decided per store directory from all its evidence, never from this rollout alone.
  const profile: Profile =
    options.profile !== "auto"
      ? options.profile
      : (options.storeProfile ??
        (source.tokensDir
          ? await storeProfile(source.tokensDir)
          : resolveProfile("auto", snapshot.entries)));
  const patterns = options.sideCallPatterns;
  await prehash.done();
  const verdict = decideVerdict(snapshot, { profile, sideCallPatterns: patterns });
  signal?.throwIfAborted();
  const other = options.decideOther
    ? decideVerdict(snapshot, { profile: otherProfile(profile), sideCallPatterns: patterns })
    : null;
  return { capture, captureStore, record, found, profile, verdict, other };
}

/**
 * One version over every file of the rollout (lib/store/file-version): it changes whenever any of
 * them does, so a cache keyed by it never serves a stale build. rollouts.jsonl counts as a whole.
 */
export async function rolloutVersion(source: RolloutSource, rolloutId: string): Promise<string> {
  assertRolloutId(rolloutId);
  const { tokensDir: t, modelCallsDir: m } = source;
  const files = [
    t && storePath(t, rolloutId, "tokens"),
    t && storePath(t, rolloutId, "incomplete"),
    t && storePath(t, rolloutId, "intents"),
    t && storePath(t, rolloutId, "state"),
    m && storePath(m, rolloutId, "capture"),
    m && storePath(m, rolloutId, "captureIncomplete"),
    source.rolloutsFile,
  ];
  return (await Promise.all(files.map((f) => fileVersion(f ?? null)))).join("|");
}

/** What a rollout with no token store reads as: no entries, no side files, no problems. */
function emptyCapture(rolloutId: string): RolloutCapture {
  return {
    snapshot: {
      rollout_id: rolloutId,
      entries: [],
      incompleteMarker: null,
      stateIncomplete: false,
      danglingIntents: [],
      retired: false,
      readError: null,
      logProbMismatches: [],
      conflictingPayloads: [],
      tornTail: false,
    },
    entryLines: [],
    state: null,
    intents: null,
    issues: [],
    hasTokenFile: false,
    lifecycle: emptyLifecycle(0),
    gymEntryLines: [],
  };
}
