// One rollout's summary for run views: the verdict and metrics (read and decided by buildRollout),
// call counts, side calls, status codes from the model-call store, reward and step from its record,
// file sizes and the store's lifecycle (./lifecycle; its facts are ./facts', as
// the inspector's are). Never keeps token arrays. A record without a token store is summarised
// from itself; a deleted rollout with nothing left is listed as deleted. The summary's shape is
// the API contract's (lib/schema/api-runs).
import "server-only";
import { rolloutLedger, spliceFactsOf, type ProfileChoice } from "@/lib/builder";
import { errorSummary, joinExchanges, type FileKind } from "@/lib/store";
import type { AttemptRef, RolloutRecord, RolloutSummary } from "@/lib/schema";
import { isFailedExchange, maskReasonsFromCapture } from "@/lib/severity";
import { buildRolloutOffThread } from "./pool";
import {
  countOutsideIds,
  danglingIntentsOf,
  decidedEntries,
  hasCapture,
  inheritedLengths,
  mainModelOf,
  readErrorOf,
  storeFacts,
} from "./facts";
import { severityOf, timelineFacts } from "./severity";
import { deletedSummary, lifecycleOf, lifecycleWithoutStore } from "./lifecycle";
import { noStoreFacts } from "./defaults";
import { expertFactsOf } from "./experts";
import { searchDecoder, type SearchTokenizer } from "./search-decoder";
import { type IndexedText, searchTextOf } from "./search-text";

export interface SummarizeInput {
  rolloutId: string;
  tokensDir: string | null;
  modelCallsDir: string | null;
  profile: ProfileChoice;
  sideCallPatterns?: readonly string[];
  record: RolloutRecord | null;
  bytes: number;
  hasStoreFiles: boolean;
  /** The rollout's files a listing found (token store and capture store); others are not opened. */
  present?: FileKind[];
  /** Gym's store deleted it: only `<id>.tokens.lock` is left in the token store. */
  deleted?: boolean;
  /** Its attempt group (`R`, `R-a1`, …), itself included; empty when it has no attempts. */
  attempts?: AttemptRef[];
  /** The run's tokenizer, when it names one: the rollout's text is decoded for search. */
  tokenizer?: SearchTokenizer | null;
}

/**
 * A summary with what search indexes of the rollout (lib/index/search): null when there is no
 * text to index, absent when the run has no tokenizer to decode it with.
 */
export type IndexedSummary = RolloutSummary & { search_text?: IndexedText | null };

export async function summarizeRollout(input: SummarizeInput): Promise<IndexedSummary> {
  const record = input.record;
  if (input.deleted && !input.hasStoreFiles && !record)
    return deletedSummary(input.rolloutId, input.attempts);
  if (!input.hasStoreFiles || !input.tokensDir) return recordSummary(input);
  const present = input.present ? new Set(input.present) : undefined;
  const source = {
    tokensDir: input.tokensDir,
    modelCallsDir: input.modelCallsDir,
    record,
    present,
  };
  const options = {
    profile: input.profile,
    sideCallPatterns: input.sideCallPatterns,
    decideOther: true,
  };
  const built = await buildRolloutOffThread(source, input.rolloutId, options, "background");
  const { capture, verdict: v, other } = built;
  if (present?.has("tokens") && !capture.hasTokenFile)
    throw new Error(`ENOENT: ${input.rolloutId}.tokens.jsonl vanished while being read`);
  const exchanges = built.captureStore?.exchanges ?? [];
  const status_codes: Record<string, number> = {};
  const error_categories: Record<string, number> = {};
  for (const { exchange: x } of exchanges) {
    const code = String(x.status_code ?? "none");
    status_codes[code] = (status_codes[code] ?? 0) + 1;
    if (x.error_category)
      error_categories[x.error_category] = (error_categories[x.error_category] ?? 0) + 1;
  }
  // Under gym-v1 the entries Gym's freeze kept (ids the seed reader refuses, a torn line dropped),
  // as the inspector lists them (./facts).
  const { entries, lines } = decidedEntries(capture, v);
  const withoutEntry = joinExchanges(entries, exchanges).withoutEntry;
  const failed = withoutEntry.filter((x) => isFailedExchange(x.exchange));
  const timeline = timelineFacts(entries, lines, withoutEntry);
  // Past int32 only: the run's tokenizer is the inspector's check, not the index's.
  const oov = countOutsideIds(entries, inheritedLengths(v));
  const sideReasons = { pattern: 0, self_calibration: 0 };
  const selfCalibrated: Record<string, number> = {};
  for (const s of v.side_calls) {
    sideReasons[s.reason.kind]++;
    // The run page suggests a pattern naming the model self-calibration set aside most.
    if (s.reason.kind === "self_calibration")
      selfCalibrated[s.requested_model] = (selfCalibrated[s.requested_model] ?? 0) + 1;
  }
  const m = v.metrics;
  const decoder = input.tokenizer ? await searchDecoder(input.tokenizer) : null;
  const readError = readErrorOf(capture, v);
  const newerSchema = readError !== null && /schema_version/.test(readError);
  const experts = expertFactsOf(v);
  const severity = severityOf({
    ...storeFacts(capture, v),
    mask_sample: v.mask_sample,
    mask_reasons: v.mask_reasons,
    error: v.error,
    record_mask_sample: record?.mask_sample ?? null,
    roots: v.build?.notes.roots ?? null,
    chains: v.build?.chains.length ?? null,
    unresolved_retries: v.build?.notes.unresolved_retries.length ?? null,
    failed_calls: timeline.cut ? [timeline.cut.fact] : [],
    calls_total: timeline.total,
    delivered_fraction: typeof m.delivered_fraction === "number" ? m.delivered_fraction : null,
    torn_tail: v.torn_tail,
    oov_tokens: oov,
    expert_fallback_fraction: experts.expert_fallback_fraction,
  });
  // The ledger's kept calls: what the build chained, or (no build) every entry but side calls.
  const sideIds = new Set(v.side_calls.map((c) => c.model_call_id));
  const kept = entries.reduce(
    (a, e) => a + (sideIds.has(e.model_call_id) ? 0 : e.generation_token_ids.length),
    0,
  );
  return {
    rollout_id: input.rolloutId,
    source: "store",
    profile: built.profile,
    mask_sample: v.mask_sample,
    mask_reasons: v.mask_reasons,
    error: v.error,
    metrics: m,
    n_calls: entries.length,
    chains: v.build ? v.build.chains.length : null,
    roots: v.build ? v.build.notes.roots : null,
    delivered_fraction: typeof m.delivered_fraction === "number" ? m.delivered_fraction : null,
    quarantined: v.build?.quarantined.length ?? 0,
    side_calls: v.side_calls.length,
    side_call_reasons: sideReasons,
    self_calibrated_models: selfCalibrated,
    fallbacks: { ...(v.build?.notes.parent_link_fallbacks ?? {}) },
    torn_tail: v.torn_tail,
    dangling_intents: danglingIntentsOf(capture, v).length,
    unreadable: readError !== null && !newerSchema,
    newer_schema: newerSchema,
    other_profile_disagrees: other !== null && other.mask_sample !== v.mask_sample,
    status_codes,
    error_categories,
    failed_calls: failed.length,
    lost_calls: withoutEntry.length - failed.length,
    cut_short: timeline.cut
      ? `HTTP ${timeline.cut.x.status_code ?? "?"} ${errorSummary(timeline.cut.x)}`
      : null,
    cut_short_call: timeline.cut?.fact ?? null,
    main_model: mainModelOf(v),
    oov_tokens: oov,
    ...experts,
    has_capture: hasCapture(capture, record),
    reward: record?.reward ?? null,
    step: record?.step ?? null,
    bytes: input.bytes,
    lifecycle: input.deleted
      ? lifecycleWithoutStore(true, input.attempts)
      : lifecycleOf(capture, input.attempts),
    ...severity,
    ledger: rolloutLedger(v.build, v.side_calls, kept, severity.severity === "masked"),
    splice: v.build ? spliceFactsOf(v.build) : null,
    // Last, not first: spread first, it made each store worker promote 140 MB, not 40 MB, to V8's
    // old generation over 5,000 rollouts, and scavenge for 0.4 s longer (--trace-gc-nvp; why
    // inside V8, we have not found). docs/search.md.
    ...(decoder && {
      search_text: searchTextOf(
        v,
        exchanges.map((x) => x.exchange),
        decoder,
      ),
    }),
  };
}

/** The numeric entries of a record's value that should be a count map (it is not validated). */
function numbersIn(value: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (value && typeof value === "object" && !Array.isArray(value))
    for (const [k, n] of Object.entries(value)) if (typeof n === "number") out[k] = n;
  return out;
}

/** The rollout's row from its record alone (source "record"), whatever store files it has. */
export function recordSummary(input: SummarizeInput): RolloutSummary {
  const r = input.record;
  const m = r?._ng_token_capture ?? {};
  const num = (k: string) => {
    const x = m[k];
    return typeof x === "number" ? x : null;
  };
  const error = typeof m.error === "string" ? m.error : null;
  const captured = num("generated_tokens_captured");
  const delivered = num("generated_tokens_delivered");
  const mask_reasons = maskReasonsFromCapture(r?._ng_token_capture ?? null);
  return {
    rollout_id: input.rolloutId,
    source: "record",
    profile: null,
    mask_sample: r?.mask_sample === true,
    mask_reasons,
    error,
    metrics: m,
    n_calls: num("n_calls") ?? 0,
    chains: num("chains"),
    roots: num("roots"),
    delivered_fraction: num("delivered_fraction"),
    quarantined: num("quarantined_calls") ?? 0,
    side_calls: num("side_calls_excluded") ?? 0,
    ...noStoreFacts(),
    fallbacks: numbersIn(m.parent_link_fallbacks),
    has_capture: (r?._ng_token_capture ?? null) !== null,
    reward: r?.reward ?? null,
    step: r?.step ?? null,
    bytes: input.bytes,
    lifecycle: lifecycleWithoutStore(input.deleted === true, input.attempts),
    ...severityOf({
      mask_sample: r?.mask_sample === true,
      mask_reasons,
      error,
      roots: num("roots"),
      chains: num("chains"),
      delivered_fraction: num("delivered_fraction"),
      generated_tokens: captured !== null && delivered !== null ? { captured, delivered } : null,
    }),
  };
}

/** A rollout that cannot be read at all (a file vanishing mid-read) still gets a row, with the error. */
export async function summarizeSafely(input: SummarizeInput): Promise<IndexedSummary> {
  try {
    return await summarizeRollout(input);
  } catch (err) {
    const base = recordSummary(input);
    const error = `read failed: ${(err as Error).message}`;
    const severity = severityOf({ mask_sample: true, mask_reasons: base.mask_reasons, error });
    return { ...base, ...severity, source: "store", unreadable: true, mask_sample: true, error };
  }
}
