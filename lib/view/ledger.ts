// The signal ledger as the run page draws it (docs/ledger.md): each step's captured tokens as a
// stack of named segments (what reached the gradient at the bottom, each loss above), each with
// the rollouts table's query that lists the rollouts behind it; and each step's share of calls
// whose prompt re-rendered an earlier turn. Pure; the numbers are the ledger route's.
import type { LedgerStep, LedgerFilter, RunLedger } from "@/lib/schema";

export type SegmentKey =
  | "with_advantage"
  | "equal_reward"
  | "in_loss_mask"
  | "outside_loss_mask"
  | "delivered"
  | "masked"
  | "branches"
  | "quarantined"
  | "retries_dropped"
  | "side_calls";

export interface Segment {
  key: SegmentKey;
  label: string;
  /** The `ledger=` filter of the rollouts behind the segment. */
  filter: LedgerFilter;
  /** Behind the segment are GRPO groups without signal: the group view lists them instead. */
  noSignalGroups?: true;
}

/** Bottom to top: what was trained, then each loss, the earliest stage's last. */
export const LEDGER_SEGMENTS: readonly Segment[] = [
  { key: "with_advantage", label: "reached the gradient", filter: "delivered" },
  {
    key: "equal_reward",
    label: "no advantage (equal-reward groups, or a logged advantage of 0)",
    filter: "delivered",
    noSignalGroups: true,
  },
  { key: "in_loss_mask", label: "in the loss mask (advantage unknown)", filter: "delivered" },
  { key: "outside_loss_mask", label: "outside the loss mask", filter: "delivered" },
  { key: "delivered", label: "delivered (no step file: trainer unknown)", filter: "delivered" },
  { key: "masked", label: "masked rollouts", filter: "masked" },
  { key: "branches", label: "branches", filter: "branches" },
  { key: "quarantined", label: "quarantine", filter: "quarantined" },
  { key: "retries_dropped", label: "dropped retries", filter: "retries_dropped" },
  { key: "side_calls", label: "side calls", filter: "side_calls" },
];

export type LedgerRow = { step: number; captured: number } & Record<SegmentKey, number>;

/** One step's stack: the segments always sum to its captured tokens. */
export function segmentsOf(s: LedgerStep): Record<SegmentKey, number> {
  const trainer = s.in_loss_mask !== null;
  const adv = s.with_advantage;
  return {
    with_advantage: adv ?? 0,
    equal_reward: trainer && adv !== null ? Math.max(0, (s.in_loss_mask ?? 0) - adv) : 0,
    in_loss_mask: trainer && adv === null ? (s.in_loss_mask ?? 0) : 0,
    outside_loss_mask: trainer ? Math.max(0, s.delivered - (s.in_loss_mask ?? 0)) : 0,
    delivered: trainer ? 0 : s.delivered,
    ...s.losses,
  };
}

/** How the rollouts whose records name no step are called where the ledger leaves them out. */
export const STEPLESS_WORDS = "the rollouts whose records name no step";

/**
 * What the ledger cannot follow to the trainer: the numbered steps with captured tokens and no
 * step file, whether rollouts that name no step have any (never called a step), and their tokens.
 */
export function unknownStages(steps: readonly LedgerStep[]): {
  steps: number;
  stepless: boolean;
  tokens: number;
} {
  const left = steps.filter((s) => s.in_loss_mask === null && s.captured > 0);
  return {
    steps: left.filter((s) => s.step !== null).length,
    stepless: left.some((s) => s.step === null),
    tokens: left.reduce((a, s) => a + s.captured, 0),
  };
}

/** Steps with a number (the chart's x axis), in order. */
export function ledgerRows(l: RunLedger): LedgerRow[] {
  return l.steps.flatMap((s) =>
    s.step === null ? [] : [{ step: s.step, captured: s.captured, ...segmentsOf(s) }],
  );
}

/**
 * The run page's query behind a segment (at one step, or the whole run): the rollouts table's
 * filter, or for equal-reward groups the group view by `groupField` showing groups without signal.
 */
export function segmentQuery(
  seg: Pick<Segment, "filter" | "noSignalGroups">,
  step: number | null,
  groupField: string | null = null,
): string {
  if (seg.noSignalGroups && groupField !== null) {
    const q = new URLSearchParams({ group: groupField, group_signal: "none" });
    if (step !== null) q.set("group_step", String(step));
    return q.toString();
  }
  const q = new URLSearchParams({ ledger: seg.filter });
  if (step !== null) q.set("step", String(step));
  return q.toString();
}

export interface RerenderRow {
  step: number;
  /** Share of the step's calls whose prompt re-rendered an earlier turn, 0–1. */
  share: number | null;
  rerendered: number;
  calls: number;
}

export function rerenderRows(l: RunLedger): RerenderRow[] {
  return l.steps.flatMap((s) =>
    s.step === null
      ? []
      : [
          {
            step: s.step,
            share: s.calls > 0 ? s.rerendered / s.calls : null,
            rerendered: s.rerendered,
            calls: s.calls,
          },
        ],
  );
}

/** The run's segments in tokens, largest first, with their share of what was captured. */
export function ledgerTotals(l: RunLedger): Array<Segment & { tokens: number; share: number }> {
  const sum = Object.fromEntries(LEDGER_SEGMENTS.map((g) => [g.key, 0])) as Record<
    SegmentKey,
    number
  >;
  for (const s of l.steps) {
    const seg = segmentsOf(s);
    for (const g of LEDGER_SEGMENTS) sum[g.key] += seg[g.key];
  }
  const of = l.totals.captured;
  return LEDGER_SEGMENTS.map((g) => ({
    ...g,
    tokens: sum[g.key],
    share: of > 0 ? sum[g.key] / of : 0,
  })).filter((g) => g.tokens > 0);
}
