// The run's health over summaries in memory: the reference lib/health/sql's queries over the index
// are checked against (lib/health/sql.test). Test code only: the product computes the
// health in SQL, never holding a run's summaries.
import type { HealthReport, RolloutSummary, StepPoint, RunManifest } from "@/lib/schema";
import {
  alertsOf,
  counts,
  deliveredBucket,
  EXPERT_FALLBACK_ALERT_THRESHOLD,
  SAMPLE,
  type AlertFacts,
  type FlaggedKind,
  type HealthExtra,
} from "@/lib/health/health";
import { applyRunFacts, captureExpected } from "@/lib/index/run-severity";
import { countBySeverity, runPolicyModel } from "@/lib/severity";
import { pushTo } from "@/lib/view/group";
import { maskReasonKeys } from "@/lib/view/rollout-nav";
import { mean as ssMean } from "simple-statistics";

/** The library's mean, null for no values (a panel with nothing to average says so). */
const meanOrNull = (xs: number[]) => (xs.length ? ssMean(xs) : null);

const isMasked = (s: RolloutSummary) => s.severity === "masked";

function tally(into: Map<string, number>, key: string, n = 1): void {
  into.set(key, (into.get(key) ?? 0) + n);
}

/** Summaries are served ones: the run's warnings (lib/index/run-severity) already applied. */
export function computeHealth(
  summaries: readonly RolloutSummary[],
  extra: HealthExtra = {},
): HealthReport {
  const reasons = new Map<string, number>(),
    delivered = new Map<string, number>(),
    chains = new Map<string, number>();
  const roots = new Map<string, number>(),
    calls = new Map<string, number>(),
    sides = new Map<string, number>();
  const fallbacks = new Map<string, number>(),
    codes = new Map<string, number>(),
    categories = new Map<string, number>();
  const steps = new Map<number, RolloutSummary[]>();
  const severityReasons = new Map<string, number>();
  const flagged: Record<FlaggedKind, string[]> = {
    cut_short: [],
    other_model_main: [],
    masked_fraction: [],
    dangling_intents: [],
    unreadable: [],
    newer_schema: [],
    unreadable_records: [],
    expert_fallback: [],
  };
  const experts = { expected: 0, fallback: 0, none: 0 };
  let masked = 0,
    quarantined = 0,
    withQuarantine = 0,
    withCapture = 0,
    fromStore = 0;
  const rewards: number[] = [];
  for (const s of summaries) {
    if (s.source === "store") fromStore++;
    for (const r of s.severity_reasons) if (r.code !== "pending") tally(severityReasons, r.title);
    if (s.severity_reasons.some((r) => r.code === "other_model_main"))
      flagged.other_model_main.push(s.rollout_id);
    if (isMasked(s)) {
      masked++;
      flagged.masked_fraction.push(s.rollout_id);
    }
    for (const r of maskReasonKeys(s)) tally(reasons, r);
    if (s.delivered_fraction !== null) tally(delivered, deliveredBucket(s.delivered_fraction));
    if (s.chains !== null) tally(chains, String(s.chains));
    if (s.roots !== null) tally(roots, String(s.roots));
    tally(calls, String(s.n_calls));
    quarantined += s.quarantined;
    if (s.quarantined > 0) withQuarantine++;
    if (s.has_capture) withCapture++;
    if (s.side_call_reasons.pattern) tally(sides, "pattern", s.side_call_reasons.pattern);
    if (s.side_call_reasons.self_calibration)
      tally(sides, "self_calibration", s.side_call_reasons.self_calibration);
    for (const [k, n] of Object.entries(s.fallbacks)) if (n) tally(fallbacks, k, n);
    for (const [k, n] of Object.entries(s.status_codes)) tally(codes, k, n);
    for (const [k, n] of Object.entries(s.error_categories)) tally(categories, k, n);
    if (s.reward !== null) rewards.push(s.reward);
    if (s.step !== null) pushTo(steps, s.step, s);
    if (s.cut_short_call) flagged.cut_short.push(s.rollout_id);
    if (s.dangling_intents > 0) flagged.dangling_intents.push(s.rollout_id);
    if ((s.expert_fallback_fraction ?? 0) >= EXPERT_FALLBACK_ALERT_THRESHOLD)
      flagged.expert_fallback.push(s.rollout_id);
    experts.expected += s.expert_routes?.expected ?? 0;
    experts.fallback += s.expert_routes?.fallback ?? 0;
    if (s.source === "store" && (s.n_calls ?? 0) > 0 && s.expert_routes === null) experts.none++;
    if (s.unreadable) flagged.unreadable.push(s.rollout_id);
    if (s.newer_schema) flagged.newer_schema.push(s.rollout_id);
  }
  const n = summaries.length;
  const per_step: StepPoint[] = [...steps.keys()]
    .sort((a, b) => a - b)
    .map((step) => {
      const xs = steps.get(step) as RolloutSummary[];
      const delivered = xs.map((x) => x.delivered_fraction).filter((x): x is number => x !== null);
      const rw = xs.map((x) => x.reward).filter((x): x is number => x !== null);
      return {
        step,
        rollouts: xs.length,
        masked_fraction: xs.filter(isMasked).length / xs.length,
        reward_mean: meanOrNull(rw),
        calls_mean: meanOrNull(xs.map((x) => x.n_calls)) ?? 0,
        delivered_mean: meanOrNull(delivered),
        side_calls: xs.reduce((a, x) => a + x.side_calls, 0),
        quarantined: xs.reduce((a, x) => a + x.quarantined, 0),
        failed_calls: xs.reduce((a, x) => a + x.failed_calls, 0),
        expert_fallback_fraction: fallbackOf(xs),
      };
    });
  const byId = new Map(summaries.map((s) => [s.rollout_id, s]));
  const severity = countBySeverity(summaries.map((s) => s.severity));
  severity.pending += extra.pending ?? 0;
  return {
    rollouts: n,
    from_store: fromStore,
    masked,
    masked_fraction: n ? masked / n : 0,
    severity,
    severity_reasons: counts(severityReasons),
    policy_model: extra.policyModel ?? null,
    mask_reasons: counts(reasons),
    delivered_fraction: counts(delivered, "key"),
    chains_per_rollout: counts(chains, "key"),
    roots_per_rollout: counts(roots, "key"),
    calls_per_rollout: counts(calls, "key"),
    quarantined_calls: quarantined,
    rollouts_with_quarantine: withQuarantine,
    rollouts_with_capture: withCapture,
    side_calls_by_reason: counts(sides),
    fallbacks_by_reason: counts(fallbacks),
    status_codes: counts(codes, "key"),
    error_categories: counts(categories),
    reward_mean: meanOrNull(rewards),
    per_step,
    alerts: alertsOf({ ...factsOf(flagged, n, byId), experts }, extra),
  };
}

/** Fallback over expected routes of the rollouts that carry routes; null when none does. */
function fallbackOf(xs: readonly RolloutSummary[]): number | null {
  const expected = xs.reduce((a, x) => a + (x.expert_routes?.expected ?? 0), 0);
  const fallback = xs.reduce((a, x) => a + (x.expert_routes?.fallback ?? 0), 0);
  return expected ? fallback / expected : null;
}

function factsOf(
  flagged: Record<FlaggedKind, string[]>,
  n: number,
  byId: Map<string, RolloutSummary>,
): Omit<AlertFacts, "experts"> {
  const cut = flagged.cut_short;
  const first = byId.get(cut[0] as string) ?? null;
  return {
    flagged: Object.fromEntries(
      Object.entries(flagged).map(([k, ids]) => [
        k,
        { count: ids.length, ids: ids.slice(0, SAMPLE) },
      ]),
    ) as AlertFacts["flagged"],
    rollouts: n,
    cutShort: {
      first,
      trained: cut.filter((id) => byId.get(id)?.severity === "trained_with_warnings").length,
    },
    otherModel: byId.get(flagged.other_model_main[0] as string)?.main_model ?? null,
  };
}

export interface RunSeverity {
  policy_model: string | null;
  /** Every summary with the run's warnings applied, in the order given. */
  summaries: RolloutSummary[];
}

/** The run's policy model over all its summaries, and each summary with the run's warnings. */
export function withRunSeverity(
  summaries: readonly RolloutSummary[],
  manifest: Pick<RunManifest, "capture">,
): RunSeverity {
  const policy_model = runPolicyModel(summaries.map((s) => s.main_model));
  const facts = { policy_model, capture_expected: captureExpected(manifest) };
  return { policy_model, summaries: summaries.map((s) => applyRunFacts(s, facts)) };
}
