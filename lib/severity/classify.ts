// The one severity model every page uses: trained, trained with warnings, or masked, each with its
// reasons in words, plus `pending` while the verdict is not known. Takes plain facts that a run
// summary or a rollout view maps to; it never reads files and never re-decides the consumer's verdict.
import type { MaskReason } from "@/lib/builder";
import type { FailedCallFact } from "./failed-call";
import type { TrainerDiffers } from "@/lib/schema";
import { trainerDiffersReason } from "./trainer-differs";
import { EXPERT_FALLBACK_WARN_AT, expertFallbackReason } from "./expert-fallback";
import {
  agentMaskedReason,
  branchesDroppedReason,
  cutShortReason,
  maskReason,
  noCaptureReason,
  otherMaskReason,
  otherModelReason,
  outOfVocabularyReason,
  type OutsideIdFact,
  pendingReason,
  retiredReason,
  tornTailReason,
  type IncompleteFacts,
  type Reason,
  type SeverityState,
  type Tombstone,
} from "./reasons";

export interface SeverityInput {
  /** The consumer's `mask_sample`; null while it is not known (still indexing, still loading). */
  mask_sample: boolean | null;
  /** Why it is not known yet, as a clause ("the run is still being indexed"). */
  pending_reason?: string;
  /** The consumer's mask reasons (builder `MaskReason`s; unknown names are kept as words). */
  mask_reasons: readonly string[];
  /** The consumer's error string (docs/capture-format.md §8.5), if any. */
  error: string | null;
  /** The record's own `mask_sample`: agents set it for timeouts and sandbox failures (§8.2). */
  record_mask_sample?: boolean | null;
  /** The store is a retired tombstone: what its `state.json` still records. */
  tombstone?: Tombstone | null;
  incomplete?: IncompleteFacts | null;
  roots?: number | null;
  chains?: number | null;
  unresolved_retries?: number | null;
  /** Failed model calls placed in the timeline (positions are 1-based call numbers). */
  failed_calls?: readonly FailedCallFact[];
  /** How many calls the timeline has (captured and failed); null when not known. */
  calls_total?: number | null;
  /** The main chain's model (`mainChainModel`) and the run's policy (`runPolicyModel`). */
  main_model?: string | null;
  policy_model?: string | null;
  delivered_fraction?: number | null;
  generated_tokens?: { captured: number; delivered: number } | null;
  /** Token ids outside any vocabulary; null when not checked. */
  oov_tokens?: number | null;
  /** The first out-of-range id's call, line and digits, when known (the inspector's view). */
  oov_first?: OutsideIdFact | null;
  torn_tail?: boolean;
  /** Any token-capture evidence for this rollout (store files or `_ng_token_capture`). */
  has_capture?: boolean;
  /** The run's manifest says capture is on (true), off (false) or does not say (null). */
  capture_expected?: boolean | null;
  /** The main chain's routed experts fallen back or missing, over those expected (MoE). */
  expert_fallback_fraction?: number | null;
  /** The trainer's step files hold a sample of this rollout that differs from its main chain. */
  trainer_differs?: TrainerDiffers | null;
}

export interface SeverityResult {
  severity: SeverityState;
  reasons: Reason[];
}

const KNOWN_MASK_REASONS: ReadonlySet<string> = new Set<MaskReason>([
  "capture_incomplete",
  "unresolved_retry",
  "all_side_calls",
  "build_error",
  "no_token_records",
  "multiple_roots",
  "multiple_chains",
]);

export function isMaskReason(r: string): r is MaskReason {
  return KNOWN_MASK_REASONS.has(r);
}

const RETIRED_ERROR = /^RuntimeError: Token capture for rollout .* is retired$/;

/** Mask reasons in the consumer's order; a tombstone's error is told once, as the tombstone. */
function maskedReasons(input: SeverityInput, masked: boolean): Reason[] {
  const out: Reason[] = [];
  const t = input.tombstone ?? null;
  const facts = {
    error: input.error,
    incomplete: input.incomplete ?? null,
    roots: input.roots ?? null,
    chains: input.chains ?? null,
    unresolved_retries: input.unresolved_retries ?? null,
  };
  if (t) out.push(retiredReason(t, masked, input.error));
  for (const name of input.mask_reasons) {
    if (t && name === "build_error" && input.error !== null && RETIRED_ERROR.test(input.error))
      continue;
    out.push(isMaskReason(name) ? maskReason(name, facts) : otherMaskReason(name));
  }
  if (masked && out.length === 0) {
    // §8.2: a true mask_sample with no capture reason is the agent's own, or the error says why.
    out.push(input.error !== null ? maskReason("build_error", facts) : agentMaskedReason());
  }
  if (!masked && input.record_mask_sample === true) out.push(agentMaskedReason());
  return out;
}

/** The failed call that ended the rollout: it is the timeline's last call. */
function cutShortBy(input: SeverityInput): FailedCallFact | null {
  const total = input.calls_total ?? null;
  if (total === null) return null;
  return input.failed_calls?.find((f) => f.position === total) ?? null;
}

function warnings(input: SeverityInput): Reason[] {
  const out: Reason[] = [];
  const cut = cutShortBy(input);
  if (cut) out.push(cutShortReason(cut));
  const main = input.main_model ?? null;
  const policy = input.policy_model ?? null;
  if (main !== null && policy !== null && main !== policy) out.push(otherModelReason(main, policy));
  const fraction = input.delivered_fraction ?? null;
  const generated = input.generated_tokens ?? null;
  // §6.7: the fraction is 0.0 when nothing was captured; that is not a dropped branch.
  if (fraction !== null && fraction < 1 && !(generated !== null && generated.captured === 0)) {
    out.push(branchesDroppedReason(fraction, generated));
  }
  const oov = input.oov_tokens ?? null;
  if (oov !== null && oov > 0) out.push(outOfVocabularyReason(oov, input.oov_first ?? null));
  if (input.torn_tail === true) out.push(tornTailReason());
  const fallback = input.expert_fallback_fraction ?? null;
  if (fallback !== null && fallback >= EXPERT_FALLBACK_WARN_AT)
    out.push(expertFallbackReason(fallback));
  if (input.has_capture === false && input.capture_expected !== false)
    out.push(noCaptureReason(input.capture_expected ?? null));
  if (input.trainer_differs) out.push(trainerDiffersReason(input.trainer_differs));
  return out;
}

/**
 * The severity of one rollout. Masked when the consumer (or the record) masks; trained with
 * warnings when any warning applies; trained otherwise; pending while `mask_sample` is unknown.
 * Masked results keep their warnings after the mask reasons (a masked rollout can be cut short).
 */
export function classifySeverity(input: SeverityInput): SeverityResult {
  if (input.mask_sample === null) {
    const why = input.pending_reason ?? "the verdict for this rollout has not been read yet";
    return { severity: "pending", reasons: [pendingReason(why)] };
  }
  const own = input.mask_sample || input.record_mask_sample === true;
  const reasons = [...maskedReasons(input, input.mask_sample), ...warnings(input)];
  if (own) return { severity: "masked", reasons };
  // The trainer's step file kept none of its tokens in the loss: masked there, that reason first.
  const left = reasons.findIndex((r) => r.severity === "masked");
  if (left >= 0)
    return { severity: "masked", reasons: [reasons[left]!, ...reasons.toSpliced(left, 1)] };
  return { severity: reasons.length > 0 ? "trained_with_warnings" : "trained", reasons };
}

const HEADLINES: Record<SeverityState, string> = {
  trained: "Trained on",
  trained_with_warnings: "Trained on, with warnings",
  masked: "Masked: excluded from training",
  pending: "Not yet known",
};

export function headline(result: Pick<SeverityResult, "severity">): string {
  return HEADLINES[result.severity];
}

/**
 * The banner: the verdict and every reason as a sentence. The first warning joins the verdict
 * ("Trained on, but cut short: call 2 got HTTP 422 …, and the agent stopped.").
 */
export function bannerSentences(result: SeverityResult): string[] {
  const [first, ...rest] = result.reasons;
  if (result.severity === "trained" || !first) return [`${HEADLINES[result.severity]}.`];
  if (result.severity === "pending") return result.reasons.map((r) => r.sentence);
  if (result.severity === "trained_with_warnings") {
    // "Trained on" is the capture consumer's word; the trainer's own files are another witness.
    const by = first.code === "trainer_differs" ? " by the capture's consumer" : "";
    return [
      `Trained on${by}, but ${first.title}: ${first.detail}.`,
      ...rest.map((r) => r.sentence),
    ];
  }
  // Masked in the trainer's own step file alone: the capture's consumer would have trained it.
  const head =
    first.code === "trainer_differs"
      ? "Masked by the trainer, not the capture's consumer: excluded from training"
      : HEADLINES[result.severity];
  return [`${head}.`, ...result.reasons.map((r) => r.sentence)];
}

/** Every reason's title, for a pill's tooltip ("cut short · torn tail"). */
export function reasonTitles(result: SeverityResult): string {
  return result.reasons.map((r) => r.title).join(" · ");
}
