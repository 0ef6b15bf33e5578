// Per-run health from rollout summaries: masked fraction and reasons, distributions (delivered
// fraction, chains, roots, calls), side calls, fallbacks, status codes, per-step series, and the
// alerts users miss (the lines that need no fixing are ./health-notes). Pure: summaries in,
// numbers out; no I/O and no token arrays.
import type {
  Alert,
  AlertKind,
  Count,
  HealthReport,
  RolloutSummary,
  StepPoint,
} from "@/lib/schema";
import { countBySeverity, describeFailedCall } from "@/lib/severity";
import { pushTo } from "@/lib/view/group";
import { deliveredBucket, maskReasonKeys } from "@/lib/view/rollout-nav";
import { counted, plural } from "@/lib/view/plural";
import { mean as ssMean } from "simple-statistics";

export const MASKED_ALERT_THRESHOLD = 0.05;
export const SAMPLE = 20;

function tally(into: Map<string, number>, key: string, n = 1): void {
  into.set(key, (into.get(key) ?? 0) + n);
}

export function counts(m: Map<string, number>, order: "key" | "count" = "count"): Count[] {
  const out = [...m].map(([key, count]) => ({ key, count }));
  return order === "count"
    ? out.sort((a, b) => b.count - a.count || a.key.localeCompare(b.key))
    : out.sort((a, b) => a.key.localeCompare(b.key, "en", { numeric: true }));
}

// Which bucket a rollout falls in is shared with the rollouts table's filters (lib/view/rollout-nav),
// so a bar's click lists exactly the rollouts the bar counts.
export { deliveredBucket };

/** The library's mean, null for no values (a panel with nothing to average says so). */
const meanOrNull = (xs: number[]) => (xs.length ? ssMean(xs) : null);

const isMasked = (s: RolloutSummary) => s.severity === "masked";

/**
 * Alert kinds computeHealth raises. The other profile's disagreement is a note (./health-notes): the
 * consumer runs one profile, so what the other would do is worth knowing but needs no fixing.
 */
export type FlaggedKind = Exclude<AlertKind, "profile_disagreement">;

export interface HealthExtra {
  /** Rollouts the index has not summarised yet: counted as pending, never as trained. */
  pending?: number;
  /** The run's policy model (lib/health/run-severity); summaries carry its warning already. */
  policyModel?: string | null;
}

/** Summaries are served ones: the run's warnings (lib/health/run-severity) already applied. */
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
  };
  let masked = 0,
    quarantined = 0,
    withQuarantine = 0,
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
    side_calls_by_reason: counts(sides),
    fallbacks_by_reason: counts(fallbacks),
    status_codes: counts(codes, "key"),
    error_categories: counts(categories),
    reward_mean: meanOrNull(rewards),
    per_step,
    alerts: alertsOf(factsOf(flagged, n, byId), extra),
  };
}

function factsOf(
  flagged: Record<FlaggedKind, string[]>,
  n: number,
  byId: Map<string, RolloutSummary>,
): AlertFacts {
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

const VERDICT: Partial<Record<FlaggedKind, Alert["verdict"]>> = {
  cut_short: "trained_with_warnings",
  other_model_main: "trained_with_warnings",
  masked_fraction: "masked",
  unreadable: "masked",
};

/** What the alerts say about their rollouts: how many, the first few, and facts for sentences. */
export interface AlertFacts {
  flagged: Record<FlaggedKind, { count: number; ids: string[] }>;
  rollouts: number;
  /** The first cut-short rollout's failed call, and how many cut-short rollouts trained with warnings. */
  cutShort: {
    first: Pick<RolloutSummary, "rollout_id" | "cut_short_call"> | null;
    trained: number;
  };
  /** The first rollout on another model's main chain. */
  otherModel: string | null;
}

/** The cut-short alert in the severity model's words (lib/severity describeFailedCall). */
function cutShortMessage(f: AlertFacts): string {
  const { count } = f.flagged.cut_short;
  const { first, trained } = f.cutShort;
  const example = first?.cut_short_call
    ? ` (e.g. ${first.rollout_id}: ${describeFailedCall(first.cut_short_call)}, and the agent stopped)`
    : "";
  const anyway =
    trained === count
      ? "all trained on with a warning"
      : `${trained} of them trained on with a warning`;
  return `${count} of ${plural(f.rollouts, "rollout")} ${count === 1 ? "was" : "were"} cut short by a failed model call, ${anyway}${example}.`;
}

function otherModelMessage(f: AlertFacts, policy: string | null): string {
  const { count, ids } = f.flagged.other_model_main;
  const them = count === 1 ? "rollout trains" : "rollouts train";
  return `${count} ${them} on another model than the run's policy \`${policy ?? "?"}\` as the main chain (e.g. ${ids[0]}: \`${f.otherModel ?? ""}\`); a side model may have out-generated the policy.`;
}

/** The run's alerts from the facts (computeHealth's, or the summary index's queries'). */
export function alertsOf(f: AlertFacts, extra: HealthExtra): Alert[] {
  const out: Alert[] = [];
  const n = f.rollouts;
  const count = (kind: FlaggedKind) => f.flagged[kind].count;
  const add = (kind: FlaggedKind, severity: Alert["severity"], message: string) => {
    const { count, ids } = f.flagged[kind];
    if (count > 0)
      out.push({
        kind,
        severity,
        verdict: VERDICT[kind] ?? null,
        count,
        message,
        rollout_ids: ids.slice(0, SAMPLE),
      });
  };
  if (count("cut_short")) add("cut_short", "error", cutShortMessage(f));
  if (count("other_model_main"))
    add("other_model_main", "warning", otherModelMessage(f, extra.policyModel ?? null));
  const maskedFraction = n ? count("masked_fraction") / n : 0;
  if (maskedFraction > MASKED_ALERT_THRESHOLD)
    add(
      "masked_fraction",
      "warning",
      `${(maskedFraction * 100).toFixed(1)}% of rollouts are masked: excluded from training (threshold ${MASKED_ALERT_THRESHOLD * 100}%).`,
    );
  if (count("dangling_intents"))
    add(
      "dangling_intents",
      "warning",
      `${counted(count("dangling_intents"), "rollout", "has", "have")} dangling intents: a call started and never finished capture.`,
    );
  if (count("unreadable"))
    add(
      "unreadable",
      "error",
      `${counted(count("unreadable"), "rollout", "has", "have")} unreadable token files (corrupt lines, invalid records).`,
    );
  if (count("newer_schema"))
    add(
      "newer_schema",
      "error",
      `${counted(count("newer_schema"), "rollout", "holds", "hold")} records of a schema this version does not support.`,
    );
  return out;
}
