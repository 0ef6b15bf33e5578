// The rollout inspector's wire contract: the rollout view and its stamp (token windows: ./api-tokens,
// call detail: ./api-call-detail). Types are inferred from the schemas; routes' tests and the browser
// parse every body with them; strict objects, so a field one side lacks fails. Wire: snake_case.
import { z } from "zod";
import { maskReasonSchema, profileSchema } from "./api-runs";
import { trainerDiffersSchema } from "./api-trainer";

const nullableInt = z.int().nullable();
const nullableNumber = z.number().nullable();
const nullableString = z.string().nullable();

// --- builder words (the builder's unions, as the view sends them) -------------------------------

export const parentLinkSchema = z.enum(["root", "recorded", "inferred", "ambiguous"]);
export const parentFallbackSchema = z.enum(["parent_call_id_missing", "parent_digest_mismatch"]);
export const quarantineReasonSchema = z.enum(["ambiguous_parent", "retry_dropped"]);
export const sideCallReasonSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("pattern"), pattern: z.string() }),
  z.strictObject({
    kind: z.literal("self_calibration"),
    policy_model: z.string(),
    policy_generated_tokens: z.int(),
  }),
]);

/** The CLI's verdict row without its flattened main chain (tokens come from the windows route). */
export const viewVerdictSchema = z.strictObject({
  rollout_id: z.string(),
  profile: profileSchema,
  mask_sample: z.boolean(),
  mask_reasons: z.array(maskReasonSchema),
  error: nullableString,
  metrics: z.record(z.string(), z.unknown()),
  side_calls: z.array(
    z.strictObject({
      model_call_id: z.string(),
      requested_model: z.string(),
      generated_tokens: z.int(),
      reason: sideCallReasonSchema,
    }),
  ),
  quarantined: z.array(z.string()),
  unresolved_retries: z.array(z.string()),
  roots: z.int(),
  torn_tail: z.boolean(),
  main: z.null(),
});

// --- the rollout view ---------------------------------------------------------------------------
export const callRoleSchema = z.enum([
  "main",
  "branch",
  "side_call",
  "quarantined",
  "excluded",
  "unchained",
]);
export const retryRoleSchema = z.enum(["kept", "dropped", "unresolved"]);

/** The last exchange recorded for a call, in brief. */
export const exchangeSummarySchema = z.strictObject({
  status_code: nullableInt,
  error_category: nullableString,
  latency_ms: nullableNumber,
  finish_reason: nullableString,
  started_at: nullableNumber,
  served_model: nullableString,
  /** Exchanges recorded for this call id (more than one when several servers appended). */
  count: z.int(),
});

export const callViewSchema = z.strictObject({
  model_call_id: z.string(),
  /** Line of the call's entry in the token file. */
  line: z.int(),
  parent_call_id: nullableString,
  link: parentLinkSchema.nullable(),
  fallback: parentFallbackSchema.nullable(),
  recorded_parent: nullableString,
  candidates: z.array(z.string()),
  role: callRoleSchema,
  chains: z.array(z.string()),
  retry: retryRoleSchema.nullable(),
  retry_group: nullableInt,
  quarantine: quarantineReasonSchema.nullable(),
  side_call: sideCallReasonSchema.nullable(),
  excluded_reason: nullableString,
  requested_model: nullableString,
  model: z.string(),
  prompt_len: z.int(),
  generated_len: z.int(),
  /** Prompt tokens inherited from the parent's cumulative sequence; the rest is interstitial. */
  inherited_len: z.int(),
  interstitial_len: z.int(),
  created_at: z.number(),
  exchange: exchangeSummarySchema.nullable(),
});

/** An HTTP call with a capture line but no token entry (a 422, a timeout). */
export const failedCallSchema = z.strictObject({
  model_call_id: z.string(),
  started_at: nullableNumber,
  status_code: nullableInt,
  error_category: nullableString,
  latency_ms: nullableNumber,
  /** The captured call that was created last before this one started: where it happened. */
  after_call: nullableString,
  error: z.string(),
  /** 1-based number in the timeline; the body's error type, where it points, and its message. */
  position: z.int(),
  error_type: nullableString,
  location: nullableString,
  message: nullableString,
});

/** An intents-file id with no token entry, after the nearest earlier one that has an entry. */
export const danglingIntentSchema = z.strictObject({
  model_call_id: z.string(),
  after_call: nullableString,
});
/** What a retired tombstone's `.tokens.state.json` still records (docs/capture-format.md §3.1). */
export const tombstoneSchema = z.strictObject({
  frozen: z.boolean(),
  snapshot_id: z.string(),
  version: z.int(),
});

export const chainViewSchema = z.strictObject({
  chain_id: z.string(),
  call_ids: z.array(z.string()),
  root_call_id: z.string(),
  generated: z.int(),
  root_created_at: z.number(),
  root_prompt_len: z.int(),
  /** Tokens in the flattened chain. */
  length: z.int(),
});

export const prefixBreakSchema = z.strictObject({
  root_call_id: z.string(),
  /** The earlier call whose cumulative sequence shares the longest prefix with this root's prompt. */
  against_call_id: nullableString,
  shared: z.int(),
  root_prompt_len: z.int(),
  against_len: z.int(),
  kind: z.enum(["compaction", "drift"]),
  /** Text of the shared tokens just before the first difference, then of each side after it. */
  context: z.string(),
  root_side: z.string(),
  against_side: z.string(),
});

export const otherProfileVerdictSchema = z.strictObject({
  profile: profileSchema,
  mask_sample: z.boolean(),
  mask_reasons: z.array(maskReasonSchema),
  error: nullableString,
  main_calls: z.array(z.string()),
  /** Roots the profile's build found (0 when it built nothing), and the side calls it set aside. */
  roots: z.int(),
  side_calls: z.int(),
});

/** How the other builder profile's verdict compares with this one, in words. */
export const otherProfileSchema = z.strictObject({
  differs: z.boolean(),
  summary: z.string(),
  verdict: otherProfileVerdictSchema,
});

export const readIssueSchema = z.strictObject({
  file: z.string(),
  line: nullableInt,
  severity: z.enum(["error", "warning"]),
  message: z.string(),
});

/** A token id outside 0 … 2^31−1 (Gym trains on it); `digits` exact, past 2^53 too. */
export const outsideIdSchema = z.strictObject({
  model_call_id: z.string(),
  line: z.int(),
  field: z.enum(["prompt_token_ids", "generation_token_ids"]),
  index: z.int(),
  digits: z.string(),
});

/** Gym main's lifecycle files as its freeze reads them (docs/gym-v1-store.md), read-only. Versions and
 * sizes are numbers, not ints: a hand-edited state can hold any integer. */
export const lifecycleSchema = z.strictObject({
  state: z.enum(["absent", "indexed", "legacy", "unreadable"]),
  frozen: z.boolean(),
  retired: z.boolean(),
  state_incomplete: z.boolean(),
  snapshot_id: nullableString,
  stored_version: nullableNumber,
  /** The version Gym's freeze would give the snapshot; null when the freeze fails first. */
  snapshot_version: nullableNumber,
  indexed_size: nullableNumber,
  file_size: z.number(),
  unindexed_lines: z.int(),
  /** The torn final line the freeze would drop: its file offset and bytes to the end. */
  torn_tail: z.strictObject({ offset: z.number(), bytes: z.number() }).nullable(),
  intents: z.strictObject({ satisfied: z.array(z.string()), dangling: z.array(z.string()) }),
  outside_ids: z.array(outsideIdSchema),
  error: nullableString,
});

export const rolloutViewSchema = z.strictObject({
  run_id: z.string(),
  rollout_id: z.string(),
  /** Changes whenever any of the rollout's files changes (size or mtime): live views poll it. */
  stamp: z.string(),
  profile: profileSchema,
  /** One line: which profile decided and why (lib/runs/profile). */
  profile_reason: z.string(),
  tokenizer: nullableString,
  tokenizer_error: nullableString,
  verdict: viewVerdictSchema,
  delivered_fraction: nullableNumber,
  /** Null: not decided yet. The page sends the view before deciding it; `?facts=1` decides it. */
  other_profile: otherProfileSchema.nullable(),
  calls: z.array(callViewSchema),
  failed: z.array(failedCallSchema),
  dangling_intents: z.array(danglingIntentSchema),
  /** Severity facts (lib/rollout/facts): main chain's model, run's policy (null until known), ids
   * outside any vocabulary, expert fallback (null: no routes), tombstone, lost calls, state flag,
   * generated tokens, capture (manifest, evidence), trainer's differing sample (null until asked). */
  main_model: nullableString,
  policy_model: nullableString,
  oov_tokens: nullableInt,
  expert_fallback_fraction: nullableNumber,
  tombstone: tombstoneSchema.nullable(),
  incomplete: z.strictObject({ lost_calls: z.array(z.string()), state_flag: z.boolean() }),
  generated_tokens: z.strictObject({ captured: z.int(), delivered: z.int() }).nullable(),
  capture_expected: z.boolean().nullable(),
  has_capture: z.boolean(),
  trainer_differs: trainerDiffersSchema.nullable(),
  chains: z.array(chainViewSchema),
  main_rule: z.strictObject({
    rule: z.enum(["generated_mass", "earliest_root"]),
    text: z.string(),
  }),
  prefix_breaks: z.array(prefixBreakSchema),
  dropped: z.strictObject({
    branch_chains: z.int(),
    quarantined_calls: z.int(),
    side_calls: z.int(),
    excluded_calls: z.int(),
    generated_not_delivered: z.int(),
  }),
  read: z.strictObject({
    issues: z.array(readIssueSchema),
    torn_tail: z.boolean(),
    token_file: z.boolean(),
    capture_store: z.strictObject({
      exists: z.boolean(),
      unreadable: z.int(),
      error: nullableString,
    }),
    /** Null when the store has no Gym lifecycle file (no `state.json`, no intents file). */
    lifecycle: lifecycleSchema.nullable(),
  }),
  /** The rollout's line in rollouts.jsonl, when the run has one. */
  record: z
    .strictObject({
      reward: nullableNumber,
      step: nullableInt,
      mask_sample: z.boolean().nullable(),
      token_capture: z.record(z.string(), z.unknown()).nullable(),
    })
    .nullable(),
});

/** `?stamp=1`: only the rollout's file stamp, so a live page can poll without a build. */
export const rolloutStampSchema = z.strictObject({ stamp: z.string() });

/** `?facts=1`: what the page leaves until after its first paint: the other profile's verdict (a
 * second decision), the run's policy model (a vote over the run's summary index); `policy_pending`
 * while that index has not completed once, so the policy is not known. */
export const rolloutFactsSchema = z.strictObject({
  other_profile: otherProfileSchema,
  policy_model: nullableString,
  policy_pending: z.boolean(),
});

export type CallRole = z.infer<typeof callRoleSchema>;
export type RetryRole = z.infer<typeof retryRoleSchema>;
export type ExchangeSummary = z.infer<typeof exchangeSummarySchema>;
export type CallView = z.infer<typeof callViewSchema>;
export type FailedCall = z.infer<typeof failedCallSchema>;
export type DanglingIntent = z.infer<typeof danglingIntentSchema>;
export type TombstoneView = z.infer<typeof tombstoneSchema>;
export type LifecycleView = z.infer<typeof lifecycleSchema>;
export type ChainView = z.infer<typeof chainViewSchema>;
export type PrefixBreak = z.infer<typeof prefixBreakSchema>;
export type OtherProfileVerdict = z.infer<typeof otherProfileVerdictSchema>;
export type OtherProfile = z.infer<typeof otherProfileSchema>;
export type RolloutView = z.infer<typeof rolloutViewSchema>;
export type RolloutStamp = z.infer<typeof rolloutStampSchema>;
export type RolloutFacts = z.infer<typeof rolloutFactsSchema>;
