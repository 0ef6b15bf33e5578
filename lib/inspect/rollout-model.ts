// The rollout inspector's model: the shared builder's verdict for one rollout, plus what a person
// needs to see why: every call with its role, link and exchange, the failed HTTP calls placed in
// time, each chain's mass and the rule that picked main, and the prefix breaks before each extra
// root. Token arrays are kept compact (each call's own prompt tail and generation as typed arrays)
// so windows of a 200k-token chain can be served without rebuilding or holding the raw entries.
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { decideVerdict, otherProfile, resolveProfile, toVerdictRow, type Build, type CallNode, type MaskReason, type ParentFallback, type ParentLink, type Profile, type ProfileChoice, type QuarantineReason, type SideCallReason, type Verdict, type VerdictRow } from "@/lib/builder";
import { assertRolloutId, joinExchanges, readCaptureStore, readRolloutCapture, storePath, type ExchangeRecord, type StoreIssue } from "@/lib/store";
import { finishReason, servedModel, type TokenEntry } from "@/lib/schema";
import { readRolloutRecords } from "@/lib/runs/rollout-records";
import type { RunLayout } from "@/lib/runs/runs-root";
import { decoderFor, type TokenDecoder } from "@/lib/tokens/decoder";
import { UnknownRolloutError } from "@/lib/errors";
import { maskReasonWords } from "@/lib/view/mask-reasons";
import { sharedBuilds } from "./shared-builds";
import { pushTo } from "@/lib/view/group";
import { errorSummary } from "./exchange-summary";

export type CallRole = "main" | "branch" | "side_call" | "quarantined" | "excluded" | "unchained";
export type RetryRole = "kept" | "dropped" | "unresolved";

export interface ExchangeSummary {
  status_code: number | null;
  error_category: string | null;
  latency_ms: number | null;
  finish_reason: string | null;
  started_at: number | null;
  served_model: string | null;
  /** Exchanges recorded for this call id (more than one when several servers appended). */
  count: number;
}

export interface CallView {
  model_call_id: string;
  /** Line order in the token file. */
  line: number;
  parent_call_id: string | null;
  link: ParentLink | null;
  fallback: ParentFallback | null;
  recorded_parent: string | null;
  candidates: string[];
  role: CallRole;
  chains: string[];
  retry: RetryRole | null;
  retry_group: number | null;
  quarantine: QuarantineReason | null;
  side_call: SideCallReason | null;
  excluded_reason: string | null;
  requested_model: string | null;
  model: string;
  prompt_len: number;
  generated_len: number;
  /** Prompt tokens inherited from the parent's cumulative sequence; the rest is interstitial. */
  inherited_len: number;
  interstitial_len: number;
  created_at: number;
  exchange: ExchangeSummary | null;
}

export interface FailedCall {
  model_call_id: string;
  started_at: number | null;
  status_code: number | null;
  error_category: string | null;
  latency_ms: number | null;
  /** The captured call that finished last before this one started: where it happened. */
  after_call: string | null;
  error: string;
}

export interface ChainView {
  chain_id: string;
  call_ids: string[];
  root_call_id: string;
  generated: number;
  root_created_at: number;
  root_prompt_len: number;
  length: number;
}

export interface PrefixBreak {
  root_call_id: string;
  /** The earlier call whose cumulative sequence shares the longest prefix with this root's prompt. */
  against_call_id: string | null;
  shared: number;
  root_prompt_len: number;
  against_len: number;
  kind: "compaction" | "drift";
  context: string;
  root_side: string;
  against_side: string;
}

export interface OtherProfileVerdict {
  profile: Profile;
  mask_sample: boolean;
  mask_reasons: MaskReason[];
  error: string | null;
  main_calls: string[];
}

export interface RolloutView {
  run_id: string;
  rollout_id: string;
  /** Changes whenever any of the rollout's files changes (size or mtime): live views poll it. */
  stamp: string;
  profile: Profile;
  tokenizer: string | null;
  tokenizer_error: string | null;
  /** The CLI's row; `main` is null (tokens come from the windows route). */
  verdict: VerdictRow;
  delivered_fraction: number | null;
  other_profile: { differs: boolean; summary: string; verdict: OtherProfileVerdict } | null;
  calls: CallView[];
  failed: FailedCall[];
  chains: ChainView[];
  main_rule: { rule: "generated_mass" | "earliest_root"; text: string };
  prefix_breaks: PrefixBreak[];
  dropped: { branch_chains: number; quarantined_calls: number; side_calls: number; excluded_calls: number; generated_not_delivered: number };
  read: { issues: StoreIssue[]; torn_tail: boolean; token_file: boolean; capture_store: { exists: boolean; unreadable: number; error: string | null } };
  record: { reward: number | null; step: number | null; mask_sample: boolean | null; token_capture: Record<string, unknown> | null } | null;
}

/** Compact token storage for one call: the prompt tail after `inherited` and the generation. */
export interface CallTokens {
  parent: number; // index into calls, -1 when the prompt is stored whole
  inherited: number;
  own: Int32Array;
  gen: Int32Array;
  logProbs: Float64Array | null;
}

export interface RolloutModel {
  view: RolloutView;
  tokens: CallTokens[];
  chainCalls: Map<string, number[]>;
  callIndex: Map<string, number>;
  decoder: TokenDecoder | null;
  /** Rough retained size, for the cache's budget. */
  weight: number;
  exchanges: Map<string, ExchangeRecord[]>;
  failedExchanges: ExchangeRecord[];
  /** Each call's output items, for the call detail (the raw records are not kept). */
  outputItems: Map<string, unknown[]>;
}

export interface InspectOptions {
  profile?: ProfileChoice;
  signal?: AbortSignal;
}

export async function inspectRollout(run: RunLayout, rolloutId: string, options: InspectOptions = {}): Promise<RolloutModel> {
  assertRolloutId(rolloutId);
  const choice = options.profile ?? run.manifest.builder_profile ?? "seed";
  const key = await cacheKey(run, rolloutId, choice);
  // Concurrent requests for the same rollout share one build (the page and its first token window).
  return builds.get(key, (signal) => buildModel(run, rolloutId, choice, signal, stampOf(key.slice(key.indexOf("|") + 1))), (m) => m.weight, options.signal);
}

function stampOf(key: string): string {
  return createHash("sha1").update(key).digest("hex").slice(0, 16);
}

/** The rollout's current stamp, without building it (cheap: a few stats). */
export async function rolloutStamp(run: RunLayout, rolloutId: string): Promise<string> {
  assertRolloutId(rolloutId);
  return stampOf(await filesKey(run, rolloutId));
}

/** Drops every cached rollout (benchmarks measure cold builds). */
export function clearInspectCache(): void {
  builds.clear();
}

export function inspectStats() {
  return { ...builds.stats };
}

// --- cache: a few recent rollouts, bounded by retained tokens; keyed by file versions ---------------

const CACHE_BUDGET = 4_000_000; // retained tokens across cached rollouts
/** Builds at once: each can hold a large rollout's raw records (hundreds of MB for 200k-token rollouts). */
const BUILD_CONCURRENCY = Math.max(1, Number(process.env.ROLLOUT_LENS_BUILD_CONCURRENCY ?? 2));
const builds = sharedBuilds<RolloutModel>("inspect", CACHE_BUDGET, BUILD_CONCURRENCY);

async function fileKey(p: string | null): Promise<string> {
  if (!p) return "-";
  const st = await stat(p).catch(() => null);
  return st ? `${st.size}:${st.mtimeMs}` : "-";
}

async function cacheKey(run: RunLayout, id: string, choice: ProfileChoice): Promise<string> {
  return `${choice}|${await filesKey(run, id)}`;
}

/** The run directory, the rollout id and the size and mtime of every file of the rollout. */
async function filesKey(run: RunLayout, id: string): Promise<string> {
  const parts = await Promise.all([
    run.tokensDir ? fileKey(storePath(run.tokensDir, id, "tokens")) : "-",
    run.tokensDir ? fileKey(storePath(run.tokensDir, id, "incomplete")) : "-",
    run.tokensDir ? fileKey(storePath(run.tokensDir, id, "intents")) : "-",
    run.tokensDir ? fileKey(storePath(run.tokensDir, id, "state")) : "-",
    run.modelCallsDir ? fileKey(storePath(run.modelCallsDir, id, "capture")) : "-",
    fileKey(run.rolloutsFile),
  ]);
  return [run.dir, id, ...parts].join("|");
}

// --- building --------------------------------------------------------------------------------------

async function buildModel(run: RunLayout, rolloutId: string, choice: ProfileChoice, signal: AbortSignal, stamp: string): Promise<RolloutModel> {
  const records = await readRolloutRecords(run.rolloutsFile);
  const record = records.byId.get(rolloutId) ?? null;
  const capture = run.tokensDir ? await readRolloutCapture(run.tokensDir, rolloutId, signal) : null;
  const captureRead = run.modelCallsDir ? await readCaptureStore(run.modelCallsDir, rolloutId, signal) : null;
  const known = (capture && (capture.hasTokenFile || capture.intents || capture.state || capture.snapshot.incompleteMarker)) || captureRead?.exists || record;
  if (!known) throw new UnknownRolloutError(`unknown rollout ${rolloutId} in run ${run.id}`);

  signal.throwIfAborted();
  const snapshot = capture?.snapshot ?? { rollout_id: rolloutId, entries: [], incompleteMarker: null, stateIncomplete: false, danglingIntents: [], retired: false, readError: null, logProbMismatches: [], conflictingPayloads: [], tornTail: false };
  const gymFiles = capture ? capture.state !== null || capture.intents !== null : false;
  const profile = resolveProfile(choice, snapshot.entries, gymFiles);
  const patterns = run.manifest.side_call_patterns;
  const verdict = decideVerdict(snapshot, { profile, sideCallPatterns: patterns });
  signal.throwIfAborted();
  const other = decideVerdict(snapshot, { profile: otherProfile(profile), sideCallPatterns: patterns });

  let decoder: TokenDecoder | null = null;
  let tokenizerError: string | null = null;
  try {
    decoder = await decoderFor(run.dir, run.manifest.tokenizer);
  } catch (err) {
    tokenizerError = (err as Error).message;
  }

  const entries = snapshot.entries;
  const lineOf = new Map(entries.map((e, k) => [e.model_call_id, capture?.entryLines[k] ?? k + 1]));
  const join = joinExchanges(entries, captureRead?.exchanges ?? []);
  const { calls, tokens, callIndex } = describeCalls(verdict, entries, lineOf, join.byCallId);
  const chains = describeChains(verdict.build, callIndex, tokens);
  const chainCalls = new Map(chains.map((c) => [c.chain_id, c.call_ids.map((id) => callIndex.get(id) as number)]));
  const delivered = typeof verdict.metrics.delivered_fraction === "number" ? verdict.metrics.delivered_fraction : null;

  const view: RolloutView = {
    run_id: run.id,
    rollout_id: rolloutId,
    stamp,
    profile,
    tokenizer: decoder?.name ?? null,
    tokenizer_error: tokenizerError,
    verdict: toVerdictRow(verdict, { includeMain: false }),
    delivered_fraction: delivered,
    other_profile: compareProfiles(verdict, other),
    calls,
    failed: placeFailed(join.withoutEntry, calls),
    chains,
    main_rule: mainRule(profile),
    prefix_breaks: verdict.build ? prefixBreaks(verdict.build, decoder) : [],
    dropped: {
      branch_chains: Math.max(0, chains.length - (verdict.build && verdict.build.mainIndex >= 0 ? 1 : 0)),
      quarantined_calls: verdict.build?.quarantined.length ?? 0,
      side_calls: verdict.side_calls.length,
      excluded_calls: calls.filter((c) => c.role === "excluded").length,
      generated_not_delivered: verdict.build ? verdict.build.notes.generated_tokens_captured - verdict.build.notes.generated_tokens_delivered : 0,
    },
    read: {
      issues: capture?.issues ?? [],
      torn_tail: snapshot.tornTail,
      token_file: capture?.hasTokenFile ?? false,
      capture_store: { exists: captureRead?.exists ?? false, unreadable: captureRead?.unreadable.length ?? 0, error: captureRead?.error ?? null },
    },
    record: record ? { reward: record.reward, step: record.step, mask_sample: record.mask_sample, token_capture: record._ng_token_capture } : null,
  };
  let weight = 0;
  for (const t of tokens) weight += t.own.length + t.gen.length;
  return {
    view,
    tokens,
    chainCalls,
    callIndex,
    decoder,
    weight,
    exchanges: join.byCallId,
    failedExchanges: join.withoutEntry,
    outputItems: new Map(entries.map((e) => [e.model_call_id, e.output_items])),
  };
}


function summarizeExchanges(list: readonly ExchangeRecord[] | undefined): ExchangeSummary | null {
  const last = list?.[list.length - 1]?.exchange;
  if (!list || !last) return null;
  return {
    status_code: last.status_code ?? null,
    error_category: last.error_category ?? null,
    latency_ms: last.latency_ms ?? null,
    finish_reason: finishReason(last),
    started_at: last.started_at ?? null,
    served_model: servedModel(last),
    count: list.length,
  };
}

function describeCalls(v: Verdict, entries: readonly TokenEntry[], lineOf: Map<string, number>, exchanges: Map<string, ExchangeRecord[]>) {
  const build = v.build;
  const nodeOf = new Map<string, CallNode>();
  for (const n of build?.nodes ?? []) nodeOf.set(n.entry.model_call_id, n);
  const side = new Map(v.side_calls.map((s) => [s.model_call_id, s.reason]));
  const chainsOf = new Map<number, string[]>();
  for (const c of build?.chains ?? []) for (const i of c.nodes) pushTo(chainsOf, i, c.chain_id);
  const empty = new Set(build?.notes.empty_generation_calls ?? []);

  // Calls in line order, except that nodes follow processing order (created_at), as the builder saw them.
  const ordered = [...entries].sort((a, b) => a.created_at - b.created_at || (lineOf.get(a.model_call_id) ?? 0) - (lineOf.get(b.model_call_id) ?? 0));
  const callIndex = new Map<string, number>();
  ordered.forEach((e, i) => callIndex.set(e.model_call_id, i));
  const calls: CallView[] = [];
  const tokens: CallTokens[] = [];
  for (const e of ordered) {
    const node = nodeOf.get(e.model_call_id);
    const parentNode = node && node.parent >= 0 ? (build as Build).nodes[node.parent] : undefined;
    const inherited = parentNode ? Math.min(parentNode.cumLen, e.prompt_token_ids.length) : 0;
    const group = node && node.retryGroup >= 0 ? (build as Build).retryGroups[node.retryGroup] : undefined;
    const chains = node ? (chainsOf.get(node.index) ?? []) : [];
    let role: CallRole;
    if (side.has(e.model_call_id)) role = "side_call";
    else if (!node) role = "excluded";
    else if (node.quarantine) role = "quarantined";
    else if (chains.includes("main")) role = "main";
    else if (chains.length > 0) role = "branch";
    else role = "unchained";
    let retry: RetryRole | null = null;
    if (group && node) retry = group.unresolved ? "unresolved" : group.kept.includes(node.index) ? "kept" : "dropped";
    calls.push({
      model_call_id: e.model_call_id,
      line: lineOf.get(e.model_call_id) ?? 0,
      parent_call_id: parentNode?.entry.model_call_id ?? null,
      link: node?.link ?? null,
      fallback: node?.fallback ?? null,
      recorded_parent: e.parent_call_id ?? null,
      candidates: node ? node.candidates.map((c) => (build as Build).nodes[c]!.entry.model_call_id) : [],
      role,
      chains,
      retry,
      retry_group: group ? (node as CallNode).retryGroup : null,
      quarantine: node?.quarantine ?? null,
      side_call: side.get(e.model_call_id) ?? null,
      excluded_reason: role === "excluded" ? (empty.has(e.model_call_id) ? "empty generation (excluded before chaining)" : v.error ? "not built: the rollout failed to build" : "not part of the build") : null,
      requested_model: e.requested_model ?? null,
      model: e.model,
      prompt_len: e.prompt_token_ids.length,
      generated_len: e.generation_token_ids.length,
      inherited_len: inherited,
      interstitial_len: e.prompt_token_ids.length - inherited,
      created_at: e.created_at,
      exchange: summarizeExchanges(exchanges.get(e.model_call_id)),
    });
    tokens.push({
      parent: -1, // set below, once every call has an index
      inherited,
      own: Int32Array.from(e.prompt_token_ids.slice(inherited)),
      gen: Int32Array.from(e.generation_token_ids),
      logProbs: e.generation_log_probs.length === e.generation_token_ids.length ? Float64Array.from(e.generation_log_probs) : null,
    });
  }
  calls.forEach((c, i) => {
    if (c.parent_call_id !== null) (tokens[i] as CallTokens).parent = callIndex.get(c.parent_call_id) ?? -1;
  });
  return { calls, tokens, callIndex };
}

function describeChains(build: Build | null, callIndex: Map<string, number>, tokens: readonly CallTokens[]): ChainView[] {
  if (!build) return [];
  const ordered = [...build.chains].sort((a, b) => (a.chain_id === "main" ? -1 : b.chain_id === "main" ? 1 : 0));
  return ordered.map((c) => {
    const ids = c.nodes.map((i) => build.nodes[i]!.entry.model_call_id);
    const root = build.nodes[c.nodes[0] as number]!.entry;
    let length = 0;
    for (const id of ids) {
      const t = tokens[callIndex.get(id) as number] as CallTokens;
      length += t.own.length + t.gen.length;
    }
    return { chain_id: c.chain_id, call_ids: ids, root_call_id: root.model_call_id, generated: c.generated, root_created_at: root.created_at, root_prompt_len: root.prompt_token_ids.length, length };
  });
}

function mainRule(profile: Profile): RolloutView["main_rule"] {
  return profile === "seed"
    ? { rule: "generated_mass", text: "the chain with the most generated tokens; ties go to the longer root prompt, then the greater root call id, then the earlier chain." }
    : { rule: "earliest_root", text: "the chain whose root call was created first (created_at); ties go to the smaller root call id." };
}

function compareProfiles(v: Verdict, o: Verdict): RolloutView["other_profile"] {
  const mainCalls = (x: Verdict) => (x.build && x.build.mainIndex >= 0 ? x.build.chains[x.build.mainIndex]!.nodes.map((i) => x.build!.nodes[i]!.entry.model_call_id) : []);
  const verdict: OtherProfileVerdict = { profile: o.profile, mask_sample: o.mask_sample, mask_reasons: o.mask_reasons, error: o.error, main_calls: mainCalls(o) };
  const diffs: string[] = [];
  if (v.mask_sample !== o.mask_sample) diffs.push(o.mask_sample ? `would mask (${o.mask_reasons.map(maskReasonWords).join(", ") || o.error})` : "would train on it");
  else if (o.mask_reasons.join() !== v.mask_reasons.join()) diffs.push(`gives other reasons: ${o.mask_reasons.map(maskReasonWords).join(", ") || "none"}`);
  if ((o.error ?? "") !== (v.error ?? "") && o.error) diffs.push(`reports ${o.error}`);
  const a = mainCalls(v), b = mainCalls(o);
  if (a.join() !== b.join()) diffs.push(b.length === 0 ? "would deliver no chain" : `would pick a different main chain (${b.length} call${b.length === 1 ? "" : "s"})`);
  return { differs: diffs.length > 0, summary: diffs.length > 0 ? `${o.profile} ${diffs.join("; ")}` : `${o.profile} decides the same`, verdict };
}

function placeFailed(list: readonly ExchangeRecord[], calls: readonly CallView[]): FailedCall[] {
  const out: FailedCall[] = [];
  for (const { exchange: x } of list) {
    const started = x.started_at ?? null;
    let after: CallView | null = null;
    for (const c of calls) if (started !== null && c.created_at <= started && (!after || c.created_at >= after.created_at)) after = c;
    out.push({
      model_call_id: x.model_call_id,
      started_at: started,
      status_code: x.status_code ?? null,
      error_category: x.error_category ?? null,
      latency_ms: x.latency_ms ?? null,
      after_call: after?.model_call_id ?? null,
      error: errorSummary(x),
    });
  }
  return out.sort((a, b) => (a.started_at ?? 0) - (b.started_at ?? 0));
}

// --- prefix breaks ------------------------------------------------------------------------------

const CONTEXT = 16;
const SIDE = 32;
const LCP_BUDGET = 50_000_000;

function prefixBreaks(build: Build, decoder: TokenDecoder | null): PrefixBreak[] {
  const text = (ids: readonly number[]) => (decoder ? decoder.decode(ids) : ids.join(" "));
  const out: PrefixBreak[] = [];
  let budget = LCP_BUDGET;
  let seenRoot = false;
  for (const node of build.nodes) {
    if (node.parent >= 0) continue;
    if (!seenRoot) {
      seenRoot = true;
      continue;
    }
    const prompt = node.entry.prompt_token_ids;
    let best: CallNode | null = null;
    let bestShared = -1;
    for (let j = 0; j < node.index && budget > 0; j++) {
      const other = build.nodes[j] as CallNode;
      const shared = commonPrefix(other.entry, prompt);
      budget -= shared + 1;
      if (shared > bestShared) [best, bestShared] = [other, shared];
    }
    const againstSeq = best ? [...best.entry.prompt_token_ids, ...best.entry.generation_token_ids] : [];
    const shared = Math.max(0, bestShared);
    out.push({
      root_call_id: node.entry.model_call_id,
      against_call_id: best?.entry.model_call_id ?? null,
      shared,
      root_prompt_len: prompt.length,
      against_len: againstSeq.length,
      kind: best && realigns(prompt, againstSeq, shared) ? "drift" : "compaction",
      context: text(prompt.slice(Math.max(0, shared - CONTEXT), shared)),
      root_side: text(prompt.slice(shared, shared + SIDE)),
      against_side: text(againstSeq.slice(shared, shared + SIDE)),
    });
  }
  return out;
}

/** After the first difference, do the two sequences line up again within a few tokens? (re-rendering drift) */
function realigns(a: readonly number[], b: readonly number[], from: number, skew = 8, run = 16): boolean {
  for (let da = 0; da <= skew; da++) {
    for (let db = 0; db <= skew; db++) {
      if (da === 0 && db === 0) continue;
      if (from + da + run > a.length || from + db + run > b.length) continue;
      let k = 0;
      while (k < run && a[from + da + k] === b[from + db + k]) k++;
      if (k === run) return true;
    }
  }
  return false;
}

function commonPrefix(e: TokenEntry, tokens: readonly number[]): number {
  const p = e.prompt_token_ids, g = e.generation_token_ids;
  const n = Math.min(p.length + g.length, tokens.length);
  for (let i = 0; i < n; i++) {
    const t = i < p.length ? p[i] : g[i - p.length];
    if (t !== tokens[i]) return i;
  }
  return n;
}
