// The consumer verdict per rollout (builder.md §5, capture-format.md §8): side calls, build,
// projection, contiguity, flattening, then mask_sample, the error string and the metrics exactly
// as the profile's consumer writes them into `_ng_token_capture`. Pure: the snapshot is read elsewhere.
import type { TokenEntry } from "@/lib/schema";
import { classifySideCalls, type SideCall, type SideCallClassification } from "./side-calls";
import { buildPrefixMerging } from "./prefix-merging";
import { PROFILE_OPTIONS, type Profile } from "./profiles";
import { checkContiguity, projectChain, ProjectionError, type Projection } from "./projection";
import { FlattenError, validateChain } from "./flatten";
import { roundHalfEven } from "./round";
import type { Build } from "./types";

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
  if (snapshot.retired) {
    v.built = false;
    v.error = `RuntimeError: Token capture for rollout ${snapshot.rollout_id} is retired`;
    return v; // retirement only follows an unmasked delivery
  }
  if (snapshot.readError !== null)
    return fail(v, snapshot.readError, { n_calls: 0 }, isIncomplete(snapshot, options.profile));
  return options.profile === "seed" ? seedVerdict(v, snapshot, options) : gymV1Verdict(v, snapshot);
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

function gymV1Verdict(v: Verdict, snapshot: CaptureSnapshot): Verdict {
  const incomplete = isIncomplete(snapshot, "gym-v1");
  const conflict = snapshot.conflictingPayloads[0];
  if (conflict !== undefined) {
    const msg = `ValueError: Model call id '${conflict}' has conflicting durable payloads for rollout '${snapshot.rollout_id}'`;
    return fail(v, msg, { n_calls: 0 }, incomplete);
  }
  const bad = snapshot.logProbMismatches[0];
  if (bad) {
    const msg = `ValidationError: ${bad.file}: line ${bad.line}: generation_log_probs has ${bad.log_probs} values for ${bad.tokens} generated tokens (call ${bad.model_call_id})`;
    return fail(v, msg, { n_calls: 0 }, incomplete);
  }
  if (snapshot.entries.length === 0) {
    mask(v, "no_token_records");
    v.error = "capture contains no token records";
    v.metrics = { n_calls: 0 };
    return markIncomplete(v, incomplete);
  }
  const n = snapshot.entries.length;
  const build = buildPrefixMerging(snapshot.entries, PROFILE_OPTIONS["gym-v1"]);
  v.build = build;
  const failure = checkBuild(v, build, "gym-v1");
  if (failure) return fail(v, failure, { n_calls: n }, incomplete);
  const { roots, chains } = build.notes;
  const base = successMetrics(build, n);
  v.metrics = {
    n_calls: base.n_calls,
    chains: base.chains,
    roots,
    quarantined_calls: base.quarantined_calls,
    quarantined_fraction: base.quarantined_fraction,
    delivered_fraction: base.delivered_fraction,
    generated_tokens_captured: base.generated_tokens_captured,
    generated_tokens_delivered: base.generated_tokens_delivered,
    empty_generation_calls: build.notes.empty_generation_calls?.length ?? 0,
  };
  if (build.notes.unresolved_retries.length > 0) mask(v, "unresolved_retry");
  if (roots !== 1) mask(v, "multiple_roots");
  if (chains !== 1) mask(v, "multiple_chains");
  return markIncomplete(v, incomplete);
}

/** Projection, contiguity and flattening of every chain; returns the error string on failure. */
function checkBuild(v: Verdict, build: Build, profile: Profile): string | null {
  try {
    const main = build.chains[build.mainIndex];
    if (!main) {
      if (profile === "gym-v1")
        throw new ProjectionError("ValueError", "capture produced no safe trainable chain");
      v.projection = { items: [], usage: { input_tokens: 0, output_tokens: 0 } };
    } else {
      const projection = projectChain(build, main);
      if (profile === "gym-v1" && projection.usage.output_tokens === 0) {
        throw new ProjectionError("ValueError", "capture produced no trainable generated tokens");
      }
      checkContiguity(build, projection, profile);
      v.projection = projection;
    }
    for (const chain of build.chains) validateChain(build.nodes, chain);
    return null;
  } catch (err) {
    if (err instanceof ProjectionError) return `${err.errorType}: ${err.message}`;
    if (err instanceof FlattenError) return `ValueError: ${err.message}`;
    throw err;
  }
}

function successMetrics(build: Build, nCalls: number) {
  return {
    n_calls: nCalls,
    chains: build.notes.chains,
    quarantined_calls: build.quarantined.length,
    quarantined_fraction: nCalls > 0 ? roundHalfEven(build.quarantined.length / nCalls, 4) : 0,
    delivered_fraction: build.notes.delivered_fraction,
    generated_tokens_captured: build.notes.generated_tokens_captured,
    generated_tokens_delivered: build.notes.generated_tokens_delivered,
  };
}

function fail(
  v: Verdict,
  error: string,
  metrics: Record<string, unknown>,
  incomplete: boolean,
): Verdict {
  mask(v, "build_error");
  v.error = error;
  v.metrics = metrics;
  v.projection = null;
  return markIncomplete(v, incomplete);
}

/** seed reads only the `.tokens.incomplete` marker; gym-v1's freeze also counts state and intents. */
export function isIncomplete(snapshot: CaptureSnapshot, profile: Profile): boolean {
  if (snapshot.incompleteMarker !== null) return true;
  return profile === "gym-v1" && (snapshot.stateIncomplete || snapshot.danglingIntents.length > 0);
}

function mask(v: Verdict, reason: MaskReason): void {
  v.mask_sample = true;
  if (!v.mask_reasons.includes(reason)) v.mask_reasons.push(reason);
}

function markIncomplete(v: Verdict, incomplete: boolean): Verdict {
  if (!incomplete) return v;
  mask(v, "capture_incomplete");
  v.metrics = { ...v.metrics, capture_incomplete: true };
  return v;
}
