// Every reason the severity model can give, in words: a short title for pills and tooltips and a
// full sentence for the inspector's banner. Mask reasons follow docs/capture-format.md §8.4/§8.5 and
// docs/gym-v1-store.md. Deciding which reasons apply is classify.ts's job.
import type { MaskReason } from "@/lib/builder";
import { describeFailedCall, type FailedCallFact } from "./failed-call";
import { plural } from "@/lib/text";

export type Severity = "trained" | "trained_with_warnings" | "masked";
/** `pending` is not a class: the verdict is not known yet, so nothing may say "trained". */
export type SeverityState = Severity | "pending";

export type WarningCode =
  | "cut_short"
  | "other_model_main"
  | "branches_dropped"
  | "out_of_vocabulary"
  | "torn_tail"
  | "no_capture"
  | "trainer_differs"
  | "expert_fallback";

export type ReasonCode =
  MaskReason | "retired" | "agent_masked" | "other_mask" | WarningCode | "pending";

export interface Reason {
  code: ReasonCode;
  severity: Exclude<SeverityState, "trained">;
  /** A few words, lower case, for a pill or tooltip ("cut short"). */
  title: string;
  /** The reason's facts as a clause, without the title ("call 2 got HTTP 422 …"). */
  detail: string;
  /** A full sentence for a banner: the title, a colon, the detail. */
  sentence: string;
}

/** A reason with its banner sentence (the title capitalised, a colon, the detail). */
export function makeReason(
  code: ReasonCode,
  severity: Reason["severity"],
  title: string,
  detail: string,
) {
  const sentence = `${title.charAt(0).toUpperCase()}${title.slice(1)}: ${detail}.`;
  return { code, severity, title, detail, sentence } satisfies Reason;
}

const code = (s: string) => `\`${s}\``;

/** What made a snapshot incomplete, when the store says (docs/gym-v1-store.md §3). */
export interface IncompleteFacts {
  /** Intent ids with no entry. */
  dangling_intents: readonly string[];
  /** Lines of `.tokens.incomplete`: the ids of calls whose write failed. */
  lost_calls: readonly string[];
  /** `state.json` has a truthy `incomplete`. */
  state_flag: boolean;
}

function listIds(ids: readonly string[], max = 3): string {
  const shown = ids.slice(0, max).map(code).join(", ");
  return ids.length > max ? `${shown} and ${ids.length - max} more` : shown;
}

function incompleteDetail(f: IncompleteFacts | null): string {
  const parts: string[] = [];
  if (f && f.dangling_intents.length > 0) {
    const n = f.dangling_intents.length;
    parts.push(
      `${n === 1 ? "intent" : "intents"} ${listIds(f.dangling_intents)} never got a token entry`,
    );
  }
  if (f && f.lost_calls.length > 0) {
    const n = f.lost_calls.length;
    parts.push(`${n === 1 ? "call" : "calls"} ${listIds(f.lost_calls)} failed to record`);
  }
  if (f?.state_flag) parts.push("the store's state is marked incomplete");
  if (parts.length === 0)
    return "the snapshot is missing at least one call, so its chain has a gap";
  return `${parts.join("; ")}, so the snapshot is missing calls`;
}

/** Facts the mask-reason sentences can name; each is optional. */
export interface MaskFacts {
  error: string | null;
  incomplete: IncompleteFacts | null;
  roots: number | null;
  chains: number | null;
  unresolved_retries: number | null;
}

/** One mask reason from the consumer's verdict, in words. */
export function maskReason(r: MaskReason, f: MaskFacts): Reason {
  switch (r) {
    case "capture_incomplete":
      return makeReason(r, "masked", "capture incomplete", incompleteDetail(f.incomplete));
    case "unresolved_retry": {
      const n = f.unresolved_retries;
      const which =
        n !== null && n > 0
          ? `${plural(n, "call")} in the final retry group`
          : "the final retry group";
      return makeReason(
        r,
        "masked",
        "unresolved final retry",
        `the builder cannot tell which of ${which} the agent kept`,
      );
    }
    case "all_side_calls":
      return makeReason(
        r,
        "masked",
        "only side calls",
        "every captured call was a side call (titles, probes), so no policy call is left to train on",
      );
    case "build_error":
      return makeReason(
        r,
        "masked",
        "build error",
        f.error !== null
          ? `the consumer failed with ${code(f.error)}`
          : "the consumer failed to build the rollout",
      );
    case "no_token_records":
      return makeReason(
        r,
        "masked",
        "no token records",
        `the store holds no captured call (${code("capture contains no token records")})`,
      );
    case "multiple_roots": {
      const n = f.roots !== null ? `${f.roots} roots` : "several roots";
      return makeReason(
        r,
        "masked",
        "several roots",
        `the calls start ${n}, and this consumer masks any rollout without exactly one`,
      );
    }
    case "multiple_chains": {
      const n = f.chains !== null ? `${f.chains} chains` : "several chains";
      return makeReason(
        r,
        "masked",
        "several chains",
        `the calls form ${n}, and this consumer masks any rollout without exactly one`,
      );
    }
  }
}

/** A mask reason this version does not know (a newer consumer's), kept in its own words. */
export function otherMaskReason(name: string): Reason {
  return makeReason(
    "other_mask",
    "masked",
    name.replace(/_/g, " "),
    `the consumer gave the reason ${code(name)}`,
  );
}

/** What a retired tombstone's `state.json` still records (docs/capture-format.md §3.1). */
export interface Tombstone {
  frozen: boolean;
  snapshot_id: string;
  version: number;
}

/**
 * A retired tombstone takes the consumer's verdict (Gym main masks it) and shows beside it what
 * the tombstone recorded: a delivery whose payload files were then deleted.
 */
export function retiredReason(t: Tombstone, masked: boolean, error: string | null): Reason {
  const snapshot = t.snapshot_id !== "" ? `snapshot ${code(t.snapshot_id)}` : "a snapshot";
  const history = `${t.frozen ? "frozen at" : "at"} ${snapshot}, version ${t.version}, delivered, then its token files were deleted`;
  const answer = error !== null ? `; the consumer now answers ${code(error)}` : "";
  return makeReason(
    "retired",
    masked ? "masked" : "trained_with_warnings",
    WARNING_TITLES.retired,
    `${history}${answer}`,
  );
}

export function agentMaskedReason(): Reason {
  return makeReason(
    "agent_masked",
    "masked",
    "masked by the agent",
    `the record carries ${code("mask_sample: true")} with no capture reason: the agent set it itself (a timeout or a sandbox failure)`,
  );
}

// --- warnings -----------------------------------------------------------------------------------

/**
 * The warnings a rollout can carry (and the retired tombstone, a warning when the consumer still
 * trains on it), each with its title: what the run table's reason filter offers beside the mask
 * reasons, and what every page calls it.
 */
export const WARNING_TITLES = {
  cut_short: "cut short",
  other_model_main: "another model as main chain",
  branches_dropped: "branches dropped",
  out_of_vocabulary: "token ids outside any vocabulary",
  torn_tail: "torn tail",
  no_capture: "no token capture",
  trainer_differs: "the trainer's sample differs",
  expert_fallback: "expert routes fell back",
  retired: "retired tombstone",
} as const satisfies Record<WarningCode | "retired", string>;

export type WarningFilterCode = keyof typeof WARNING_TITLES;

export function cutShortReason(f: FailedCallFact): Reason {
  return makeReason(
    "cut_short",
    "trained_with_warnings",
    WARNING_TITLES.cut_short,
    `${describeFailedCall(f)}, and the agent stopped`,
  );
}

export function otherModelReason(mainModel: string, policyModel: string): Reason {
  return makeReason(
    "other_model_main",
    "trained_with_warnings",
    WARNING_TITLES.other_model_main,
    `the main chain comes from ${code(mainModel)}, not the run's policy model ${code(policyModel)}; a side model may have out-generated the policy`,
  );
}

export function branchesDroppedReason(
  fraction: number,
  generated: { captured: number; delivered: number } | null,
): Reason {
  // Never round a partial delivery up to "100%".
  const pct = `${Math.min(99.9, Math.round(fraction * 1000) / 10)}%`;
  const counts = generated ? ` (${generated.delivered} of ${generated.captured})` : "";
  return makeReason(
    "branches_dropped",
    "trained_with_warnings",
    WARNING_TITLES.branches_dropped,
    `the main chain carries ${pct} of the generated tokens captured${counts}; the rest (branches, dropped retries, quarantined calls) is left out of training`,
  );
}

/** Where the first out-of-range id sits, when the store says (gym-v1 reads exact digits). */
export interface OutsideIdFact {
  model_call_id: string;
  line: number;
  digits: string;
}

export function outOfVocabularyReason(count: number, first: OutsideIdFact | null = null): Reason {
  // One parenthesis: the range, then where the first such id is, after a semicolon.
  const where = first
    ? `; first: id ${first.digits} in call ${first.model_call_id}, line ${first.line}`
    : "";
  return makeReason(
    "out_of_vocabulary",
    "trained_with_warnings",
    WARNING_TITLES.out_of_vocabulary,
    `${plural(count, "token id")} ${count === 1 ? "lies" : "lie"} outside every vocabulary (0 … 2^31−1, or the tokenizer's size${where}), and the consumer trains on ${count === 1 ? "it" : "them"} as recorded`,
  );
}

export function tornTailReason(): Reason {
  return makeReason(
    "torn_tail",
    "trained_with_warnings",
    WARNING_TITLES.torn_tail,
    "the token file ends in a partial line (a write cut off); it was left out, as Gym's freeze drops it, and the rest was built",
  );
}

/** `expected` is the run manifest's capture setting: on (true) or not stated (null). */
export function noCaptureReason(expected: boolean | null): Reason {
  const run = expected
    ? "although the run captures tokens"
    : "and the run does not say whether it captures tokens";
  return makeReason(
    "no_capture",
    "trained_with_warnings",
    WARNING_TITLES.no_capture,
    `nothing was captured for this rollout ${run}, so the trainer uses the record as the agent wrote it`,
  );
}

export function pendingReason(why: string): Reason {
  return makeReason("pending", "pending", "not yet known", why);
}
