// The consumer verdict per rollout (docs/builder.md §5, docs/capture-format.md §8): side calls, build,
// projection, contiguity, flattening, then mask_sample, the error string and the metrics exactly
// as the profile's consumer writes them into `_ng_token_capture`. Pure: the snapshot is read elsewhere.
import type { TokenEntry } from "@/lib/schema";
import { classifySideCalls, type SideCall, type SideCallClassification } from "./side-calls";
import { buildPrefixMerging } from "./prefix-merging";
import { PROFILE_OPTIONS, type Profile } from "./profiles";
import type { Projection } from "./projection";
import type { Build } from "./types";
import { gymV1Verdict } from "./gym-v1-verdict";
import {
  checkBuild,
  fail,
  isIncomplete,
  markIncomplete,
  mask,
  successMetrics,
} from "./verdict-steps";

export { isIncomplete };

/**
 * What Gym main's freeze concluded (docs/gym-v1-store.md): the gym-v1 verdict decides from this alone
 * when the reader supplies it. Its entries may differ from `CaptureSnapshot.entries` (a torn line
 * Gym drops, token ids the seed reader refuses).
 */
export interface GymFrozenView {
  /** The freeze or the entry read failed: the consumer's error (masked, `{n_calls: 0}`). */
  error: string | null;
  /** The state is retired (the error then says so). */
  retired: boolean;
  entries: TokenEntry[];
  /** The state's flag (Python truthiness) or an intent without an entry. */
  incomplete: boolean;
  /** The freeze would drop a torn final line of the unindexed tail. */
  tornTail: boolean;
}

/** What a consumer builds from: the store's frozen view of one rollout. */
export interface CaptureSnapshot {
  rollout_id: string;
  entries: TokenEntry[];
  /** Lines of `<id>.tokens.incomplete` (lost call ids or reasons); null when there is no marker. */
  incompleteMarker: string[] | null;
  /** `state.json` says incomplete (gym-v1 store). */
  stateIncomplete: boolean;
  /** Intent ids with no entry, after `-id` cancels (gym-v1 store). */
  danglingIntents: string[];
  /** A retired tombstone: delivered unmasked, then its payload files were deleted. */
  retired: boolean;
  /** The store could not be read (corrupt line, newer schema, invalid record). */
  readError: string | null;
  /** Records whose log-prob count differs from their token count (read errors in gym-v1). */
  logProbMismatches: Array<{
    file: string;
    line: number;
    model_call_id: string;
    log_probs: number;
    tokens: number;
  }>;
  /** Call ids recorded twice with different payloads (gym-v1's store refuses to read these). */
  conflictingPayloads: string[];
  /** A torn final line was ignored (a write in progress). */
  tornTail: boolean;
  /** Gym main's freeze of the same files, when the reader computed it (gym-v1 decides from it). */
  gym?: GymFrozenView | null;
}

export type MaskReason =
  | "capture_incomplete"
  | "unresolved_retry"
  | "all_side_calls"
  | "build_error"
  | "no_token_records"
  | "multiple_roots"
  | "multiple_chains";

export interface Verdict {
  rollout_id: string;
  profile: Profile;
  /** False when the consumer had nothing to build (seed: no records) or the rollout was retired. */
  built: boolean;
  mask_sample: boolean;
  mask_reasons: MaskReason[];
  error: string | null;
  metrics: Record<string, unknown>;
  side_calls: SideCall[];
  sideCallInfo: SideCallClassification | null;
  build: Build | null;
  projection: Projection | null;
  torn_tail: boolean;
}

export interface VerdictOptions {
  profile: Profile;
  sideCallPatterns?: readonly string[];
}

export function decideVerdict(snapshot: CaptureSnapshot, options: VerdictOptions): Verdict {
  const v = baseVerdict(snapshot, options.profile);
  if (options.profile === "gym-v1") return gymV1Verdict(v, snapshot);
  if (snapshot.retired) {
    v.built = false;
    v.error = `RuntimeError: Token capture for rollout ${snapshot.rollout_id} is retired`;
    return v; // retirement only follows an unmasked delivery
  }
  if (snapshot.readError !== null)
    return fail(v, snapshot.readError, { n_calls: 0 }, isIncomplete(snapshot, options.profile));
  return seedVerdict(v, snapshot, options);
}

function baseVerdict(snapshot: CaptureSnapshot, profile: Profile): Verdict {
  return {
    rollout_id: snapshot.rollout_id,
    profile,
    built: true,
    mask_sample: false,
    mask_reasons: [],
    error: null,
    metrics: {},
    side_calls: [],
    sideCallInfo: null,
    build: null,
    projection: null,
    torn_tail: snapshot.tornTail,
  };
}

function seedVerdict(v: Verdict, snapshot: CaptureSnapshot, options: VerdictOptions): Verdict {
  if (snapshot.entries.length === 0) {
    v.built = false; // the seed consumer leaves the record untouched
    return v;
  }
  const sides = classifySideCalls(snapshot.entries, options.sideCallPatterns ?? []);
  v.sideCallInfo = sides;
  v.side_calls = sides.sideCalls;
  const excluded = sides.sideCalls.length;
  if (sides.kept.length === 0) {
    mask(v, "all_side_calls");
    v.error = "all captured calls were side calls";
    v.metrics = { n_calls: snapshot.entries.length, side_calls_excluded: excluded };
    return markIncomplete(v, isIncomplete(snapshot, "seed"));
  }
  const build = buildPrefixMerging(sides.kept, PROFILE_OPTIONS.seed);
  v.build = build;
  const failure = checkBuild(v, build, "seed");
  if (failure) {
    return fail(
      v,
      failure,
      { n_calls: sides.kept.length, side_calls_excluded: excluded },
      isIncomplete(snapshot, "seed"),
    );
  }
  v.metrics = {
    ...successMetrics(build, sides.kept.length),
    parent_link_fallbacks: build.notes.parent_link_fallbacks ?? {},
    side_calls_excluded: excluded,
  };
  if (build.notes.unresolved_retries.length > 0) mask(v, "unresolved_retry");
  return markIncomplete(v, isIncomplete(snapshot, "seed"));
}
