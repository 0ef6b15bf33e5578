// Assembles the inspector's model of one rollout from the shared read-and-decide path
// (lib/rollout/build), the model-call capture and the record rollout-model looked up by id:
// the view with every call, chain, failed call and prefix break, and compact tokens for the windows.
// Not responsible for caching (rollout-model) or for the words the views show (lib/view).
import "server-only";
import { toVerdictRow, type Verdict } from "@/lib/builder";
import { UnknownRolloutError } from "@/lib/errors";
import {
  rolloutSourceOf,
  buildRolloutOffThread,
  countOutsideIds,
  expertFactsOf,
  danglingIntentsOf,
  decidedEntries,
  hasCapture,
  hasLifecycleFiles,
  inheritedLengths,
  mainModelOf,
  storeFacts,
} from "@/lib/rollout";
import type { RecordRead } from "@/lib/index";
import type { RunLayout } from "@/lib/runs";
import type { LifecycleView, OtherProfileVerdict, RolloutView } from "@/lib/schema";
import { joinExchanges, type CaptureRead, type RolloutCapture } from "@/lib/store";
import { decoderFor, type TokenDecoder } from "@/lib/tokens";
import { mainRule } from "@/lib/view";
import { describeCalls, describeChains, placeFailed } from "./describe-calls";
import type { BuildProgressSink } from "./build-progress";
import type { RolloutModel } from "./model";
import { prefixBreaks } from "./prefix-breaks";
import { danglingIntents, outsideVocabulary } from "./severity-facts";

export interface ModelRequest {
  run: RunLayout;
  rolloutId: string;
  profile: "seed" | "gym-v1";
  /** Why that profile decides (lib/runs/profile), shown on the page. */
  profileReason: string;
  /** The rollout's file stamp (rollout-model), so the view can say which files it was built from. */
  stamp: string;
  /** The rollout's record, looked up on the main thread (the index's records table, by id). */
  record: RecordRead;
  signal: AbortSignal;
  /** Where the build reports the bytes it reads and when it starts decoding (the loading page's bar). */
  progress?: BuildProgressSink;
}

/** The verdict facts the other-profile comparison looks at. */
function facts(v: Verdict): OtherProfileVerdict {
  const b = v.build;
  const main = b && b.mainIndex >= 0 ? b.chains[b.mainIndex] : undefined;
  return {
    profile: v.profile,
    mask_sample: v.mask_sample,
    mask_reasons: v.mask_reasons,
    error: v.error,
    main_calls: main ? main.nodes.map((i) => b?.nodes[i]?.entry.model_call_id ?? "") : [],
    roots: b?.notes.roots ?? 0,
    side_calls: v.side_calls.length,
  };
}

/** The same facts of a built view (its main chain is the chain called "main"). */
export function viewFacts(view: RolloutView): OtherProfileVerdict {
  const { mask_sample, mask_reasons, error } = view.verdict;
  const main = view.chains.find((c) => c.chain_id === "main");
  return {
    profile: view.profile,
    mask_sample,
    mask_reasons,
    error,
    main_calls: main?.call_ids ?? [],
    roots: view.verdict.roots,
    side_calls: view.verdict.side_calls.length,
  };
}

/** The run's files and the rollout's record, as the build reads them. */
const sourceOf = (run: RunLayout, { record, error }: RecordRead) => ({
  ...rolloutSourceOf(run),
  record,
  recordError: error,
});

/** The verdict facts of `profile` over the rollout: a read and a decision, no view. */
export async function decideProfile(
  run: RunLayout,
  rolloutId: string,
  profile: "seed" | "gym-v1",
  record: RecordRead,
  signal: AbortSignal,
): Promise<OtherProfileVerdict> {
  const patterns = run.manifest.side_call_patterns;
  const built = await buildRolloutOffThread(sourceOf(run, record), rolloutId, {
    profile,
    sideCallPatterns: patterns,
    signal,
  });
  if (!built.found) throw new UnknownRolloutError(`unknown rollout ${rolloutId} in run ${run.id}`);
  return facts(built.verdict);
}

async function tokenizer(
  run: RunLayout,
): Promise<{ decoder: TokenDecoder | null; error: string | null }> {
  try {
    return { decoder: await decoderFor(run.dir, run.manifest.tokenizer, run.root), error: null };
  } catch (err) {
    return { decoder: null, error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Gym's lifecycle as the view sends it; null when there is no `state.json`, no intents file and no
 * id outside int32 (those ids are listed here with their call and line, lifecycle files or not).
 */
function lifecycleView(capture: RolloutCapture): LifecycleView | null {
  const lc = capture.lifecycle;
  if (!hasLifecycleFiles(capture) && lc.outsideIds.length === 0) return null;
  return {
    state: lc.state,
    frozen: lc.frozen,
    retired: lc.retired,
    state_incomplete: lc.stateIncomplete,
    snapshot_id: lc.snapshotId,
    stored_version: lc.storedVersion,
    snapshot_version: lc.snapshotVersion,
    indexed_size: lc.indexedSize,
    file_size: lc.fileSize,
    unindexed_lines: lc.unindexedLines,
    torn_tail: lc.tornTail && { offset: lc.tornTail.offset, bytes: lc.tornTail.bytes },
    intents: { satisfied: [...lc.intents.satisfied], dangling: [...lc.intents.dangling] },
    outside_ids: lc.outsideIds.map((o) => ({
      model_call_id: o.model_call_id,
      line: o.line,
      field: o.field,
      index: o.index,
      digits: o.digits,
    })),
    error: lc.error,
  };
}

/** The shared store facts in the view's shape, whose dangling intents are placed apart. */
function inspectorStoreFacts(capture: RolloutCapture, verdict: Verdict) {
  const { tombstone, incomplete, generated_tokens } = storeFacts(capture, verdict);
  const { lost_calls, state_flag } = incomplete;
  return { tombstone, incomplete: { lost_calls: [...lost_calls], state_flag }, generated_tokens };
}

function readFacts(
  capture: RolloutCapture,
  captureRead: CaptureRead | null,
  verdict: Verdict,
): RolloutView["read"] {
  // The store's line checks are the seed reader's: under gym-v1 a line it refuses (an id of -1 or
  // 2^60) may be one Gym reads and trains on, so say whose refusal it is.
  const seedOnly = verdict.profile === "gym-v1";
  return {
    issues: capture.issues.map((i) =>
      seedOnly && i.severity === "error" && i.line !== null
        ? { ...i, message: `the seed profile refuses this line: ${i.message}` }
        : i,
    ),
    // The torn line the verdict's profile dropped: gym-v1 judges the tail by its own rules.
    torn_tail: verdict.torn_tail,
    token_file: capture.hasTokenFile,
    capture_store: {
      exists: captureRead?.exists ?? false,
      unreadable: captureRead?.unreadable.length ?? 0,
      error: captureRead?.error ?? null,
    },
    lifecycle: lifecycleView(capture),
  };
}

export async function buildModel({
  run,
  rolloutId,
  profile,
  profileReason,
  stamp,
  record: recordRead,
  signal,
  progress,
}: ModelRequest): Promise<RolloutModel> {
  const patterns = run.manifest.side_call_patterns;
  const built = await buildRolloutOffThread(sourceOf(run, recordRead), rolloutId, {
    profile,
    sideCallPatterns: patterns,
    signal,
    onProgress: progress?.read,
  });
  if (!built.found) throw new UnknownRolloutError(`unknown rollout ${rolloutId} in run ${run.id}`);
  progress?.decoding();
  const { verdict, capture, captureStore, record } = built;
  const { decoder, error: tokenizerError } = await tokenizer(run);

  // The entries, intents, tombstone and id count the run table's summary shows too.
  const { entries, lines } = decidedEntries(capture, verdict);
  const join = joinExchanges(entries, captureStore?.exchanges ?? []);
  const { calls, tokens, callIndex } = describeCalls(
    verdict,
    entries,
    lines,
    join.byCallId,
    capture.lifecycle.outsideIds,
  );
  const chains = describeChains(verdict.build, callIndex, tokens);
  const failed = placeFailed(join.withoutEntry, calls);
  const notes = verdict.build?.notes;
  const view: RolloutView = {
    run_id: run.id,
    rollout_id: rolloutId,
    stamp,
    profile: verdict.profile,
    profile_reason: profileReason,
    tokenizer: decoder?.name ?? null,
    tokenizer_error: tokenizerError,
    verdict: { ...toVerdictRow(verdict, { includeMain: false }), main: null },
    delivered_fraction:
      typeof verdict.metrics.delivered_fraction === "number"
        ? verdict.metrics.delivered_fraction
        : null,
    // Decided after the first paint (rollout-model's otherProfileOf): it is a second build.
    other_profile: null,
    calls,
    failed,
    // Which intents dangle is the profile's reading; the seed parse's order only places them.
    dangling_intents: danglingIntents(
      danglingIntentsOf(capture, verdict),
      capture.intents?.ids ?? null,
      callIndex,
    ),
    main_model: mainModelOf(verdict),
    policy_model: null, // the run's policy needs every rollout: the page sets it when the run has it
    oov_tokens: countOutsideIds(entries, inheritedLengths(verdict), outsideVocabulary(decoder)),
    expert_fallback_fraction: expertFactsOf(verdict).expert_fallback_fraction,
    ...inspectorStoreFacts(capture, verdict),
    has_capture: hasCapture(capture, record),
    capture_expected: run.manifest.capture === undefined ? null : run.manifest.capture === "on",
    trainer_differs: null, // the truth check reads the run's step files: the page asks for it
    chains,
    main_rule: mainRule(verdict.profile),
    prefix_breaks: verdict.build ? prefixBreaks(verdict.build, decoder) : [],
    dropped: {
      branch_chains: Math.max(
        0,
        chains.length - (verdict.build && verdict.build.mainIndex >= 0 ? 1 : 0),
      ),
      quarantined_calls: verdict.build?.quarantined.length ?? 0,
      side_calls: verdict.side_calls.length,
      excluded_calls: calls.filter((c) => c.role === "excluded").length,
      generated_not_delivered: notes
        ? notes.generated_tokens_captured - notes.generated_tokens_delivered
        : 0,
    },
    read: readFacts(capture, captureStore, verdict),
    record: record && {
      reward: record.reward,
      step: record.step,
      mask_sample: record.mask_sample,
      token_capture: record._ng_token_capture,
    },
  };
  let weight = 0;
  // Routes weigh as their bytes in int32 ids.
  for (const t of tokens)
    weight += t.own.length + t.gen.length + (t.routes?.data.byteLength ?? 0) / 4;
  const chainCalls = new Map(
    chains.map((c) => [c.chain_id, c.call_ids.map((id) => callIndex.get(id) ?? -1)]),
  );
  const outputItems = new Map(entries.map((e) => [e.model_call_id, e.output_items]));
  return {
    view,
    tokens,
    chainCalls,
    callIndex,
    decoder,
    weight,
    exchanges: join.byCallId,
    outputItems,
  };
}
