// The CLI's per-rollout JSON row: a contract other tools script against (documented in README).
import { flattenChain } from "./flatten";
import type { SideCall } from "./side-calls";
import type { MaskReason, Verdict } from "./verdict";
import type { Profile } from "./profiles";

export interface VerdictRow {
  rollout_id: string;
  profile: Profile;
  mask_sample: boolean;
  mask_reasons: MaskReason[];
  error: string | null;
  metrics: Record<string, unknown>;
  side_calls: SideCall[];
  quarantined: string[];
  unresolved_retries: string[];
  roots: number;
  torn_tail: boolean;
  main: null | {
    call_ids: string[];
    token_ids: number[];
    loss_mask: number[];
    log_probs: Array<number | null>;
  };
}

/** `includeMain: false` skips flattening the main chain (summaries that never show tokens). */
export function toVerdictRow(v: Verdict, options: { includeMain?: boolean } = {}): VerdictRow {
  const build = v.build;
  const wantMain = options.includeMain ?? true;
  const mainChain =
    build && wantMain && v.error === null ? build.chains[build.mainIndex] : undefined;
  let main: VerdictRow["main"] = null;
  if (build && mainChain) {
    const flat = flattenChain(build, mainChain);
    main = {
      call_ids: flat.call_ids,
      token_ids: flat.token_ids,
      loss_mask: flat.loss_mask,
      log_probs: flat.log_probs,
    };
  }
  return {
    rollout_id: v.rollout_id,
    profile: v.profile,
    mask_sample: v.mask_sample,
    mask_reasons: v.mask_reasons,
    error: v.error,
    metrics: v.metrics,
    side_calls: v.side_calls,
    quarantined: build?.quarantined ?? [],
    unresolved_retries: build?.notes.unresolved_retries ?? [],
    roots: build?.notes.roots ?? 0,
    torn_tail: v.torn_tail,
    main,
  };
}

const EXACT = "\u0001exact-int:";

/**
 * The row as one JSON line, an integer past 2^53 written with all its digits (JSON.stringify would
 * shorten 2^60 to 1152921504606847000, which is another number to Python).
 */
export function verdictRowJson(row: VerdictRow): string {
  const text = JSON.stringify(row, (_key, v: unknown) =>
    typeof v === "number" && Number.isInteger(v) && !Number.isSafeInteger(v)
      ? EXACT + BigInt(v).toString()
      : v,
  );
  return text.replace(/"\\u0001exact-int:(-?\d+)"/g, "$1");
}
