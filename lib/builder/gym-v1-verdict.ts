// The gym-v1 consumer's verdict (docs/gym-v1-store.md §4–5, docs/capture-format.md §8 [S]): a failed freeze
// or entry read masks with `{n_calls: 0}`, a retired tombstone too, then Gym main's builder runs
// on the entries its freeze read. Pure: what the freeze concluded comes in `snapshot.gym`.
import { buildPrefixMerging } from "./prefix-merging";
import { PROFILE_OPTIONS } from "./profiles";
import type { CaptureSnapshot, Verdict } from "./verdict";
import {
  checkBuild,
  fail,
  isIncomplete,
  markIncomplete,
  mask,
  successMetrics,
} from "./verdict-steps";

export function gymV1Verdict(v: Verdict, snapshot: CaptureSnapshot): Verdict {
  const gym = snapshot.gym;
  if (gym) {
    v.torn_tail = gym.tornTail;
    if (gym.retired) v.built = false;
    if (gym.error !== null) return fail(v, gym.error, { n_calls: 0 }, false);
    return build(v, gym.entries, gym.incomplete);
  }
  // A snapshot without the freeze's view (built by hand): its own fields say what the store held.
  if (snapshot.retired) {
    v.built = false;
    const error = `RuntimeError: Token capture for rollout ${snapshot.rollout_id} is retired`;
    return fail(v, error, { n_calls: 0 }, false);
  }
  const incomplete = isIncomplete(snapshot, "gym-v1");
  if (snapshot.readError !== null) return fail(v, snapshot.readError, { n_calls: 0 }, incomplete);
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
  return build(v, snapshot.entries, incomplete);
}

function build(v: Verdict, entries: CaptureSnapshot["entries"], incomplete: boolean): Verdict {
  if (entries.length === 0) {
    mask(v, "no_token_records");
    v.error = "capture contains no token records";
    v.metrics = { n_calls: 0 };
    return markIncomplete(v, incomplete);
  }
  const n = entries.length;
  const b = buildPrefixMerging(entries, PROFILE_OPTIONS["gym-v1"]);
  v.build = b;
  const failure = checkBuild(v, b, "gym-v1");
  if (failure) return fail(v, failure, { n_calls: n }, incomplete);
  const { roots, chains } = b.notes;
  const base = successMetrics(b, n);
  v.metrics = {
    n_calls: base.n_calls,
    chains: base.chains,
    roots,
    quarantined_calls: base.quarantined_calls,
    quarantined_fraction: base.quarantined_fraction,
    delivered_fraction: base.delivered_fraction,
    generated_tokens_captured: base.generated_tokens_captured,
    generated_tokens_delivered: base.generated_tokens_delivered,
    empty_generation_calls: b.notes.empty_generation_calls?.length ?? 0,
  };
  if (b.notes.unresolved_retries.length > 0) mask(v, "unresolved_retry");
  if (roots !== 1) mask(v, "multiple_roots");
  if (chains !== 1) mask(v, "multiple_chains");
  return markIncomplete(v, incomplete);
}
