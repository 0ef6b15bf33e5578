// Per-run health's shared parts: the alert facts and sentences (the alerts users miss; the lines
// that need no fixing are ./notes), count ordering and thresholds. The health itself is
// computed by ./sql over the index; the same in memory, the tests' reference, is
// lib/testing/health-reference. Pure; no I/O and no token arrays.
import type { Alert, AlertKind, Count, RolloutSummary } from "@/lib/schema";
import { describeFailedCall, EXPERT_FALLBACK_WARN_AT } from "@/lib/severity";
import { deliveredBucket } from "@/lib/view";
import { counted, plural } from "@/lib/text";

export const MASKED_ALERT_THRESHOLD = 0.05;
/** Routes replay should not fall back: past 1% of a run's routes is worth a look (docs/experts.md). */
export const EXPERT_FALLBACK_ALERT_THRESHOLD = EXPERT_FALLBACK_WARN_AT;
export const SAMPLE = 20;

export function counts(m: Map<string, number>, order: "key" | "count" = "count"): Count[] {
  const out = [...m].map(([key, count]) => ({ key, count }));
  return order === "count"
    ? out.sort((a, b) => b.count - a.count || a.key.localeCompare(b.key))
    : out.sort((a, b) => a.key.localeCompare(b.key, "en", { numeric: true }));
}

// Which bucket a rollout falls in is shared with the rollouts table's filters (lib/view/rollout-nav),
// so a bar's click lists exactly the rollouts the bar counts.
export { deliveredBucket };

/**
 * Alert kinds the health raises. The other profile's disagreement is a note (./notes): the
 * consumer runs one profile, so what the other would do is worth knowing but needs no fixing.
 */
export type FlaggedKind = Exclude<AlertKind, "profile_disagreement">;

export interface HealthExtra {
  /** Rollouts the index has not summarised yet: counted as pending, never as trained. */
  pending?: number;
  /** The run's policy model (lib/index/run-severity); summaries carry its warning already. */
  policyModel?: string | null;
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
  /**
   * Routed experts over the run's main chains: expected routes and those that fell back; and the
   * rollouts read from a store whose main chain carries no route at all (left out of those).
   */
  experts: { expected: number; fallback: number; none: number };
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
  const experts = f.experts.expected ? f.experts.fallback / f.experts.expected : 0;
  // In a run with routes, a rollout without any has every token routed by the trainer.
  const none =
    f.experts.expected > 0 && f.experts.none > 0
      ? ` ${counted(f.experts.none, "more rollout", "carries", "carry")} no route at all in a run whose others have them (not counted above): all their tokens train with the trainer's router.`
      : "";
  if (experts > EXPERT_FALLBACK_ALERT_THRESHOLD || none)
    add(
      "expert_fallback",
      "warning",
      `${(experts * 100).toFixed(1)}% of the routed experts on main chains fell back to the trainer's router or are missing (${f.experts.fallback} of ${f.experts.expected} routes; threshold ${EXPERT_FALLBACK_ALERT_THRESHOLD * 100}%): those tokens train with other experts than inference used.${none}`,
    );
  return out;
}
