// The ledger chart's stacks: every step's segments sum to its captured tokens, known or not, and
// each segment's link is the table's ledger filter at that step.
import { describe, expect, it } from "vitest";
import type { LedgerStep, RunLedger } from "@/lib/schema";
import { LEDGER_SEGMENTS, ledgerRows, ledgerTotals, segmentQuery, segmentsOf } from "./ledger";

const losses = { side_calls: 5, retries_dropped: 4, quarantined: 3, branches: 2, masked: 1 };
const step = (over: Partial<LedgerStep>): LedgerStep => ({
  step: 0,
  rollouts: 4,
  counted: 4,
  captured: 115,
  losses,
  delivered: 100,
  in_loss_mask: null,
  with_advantage: null,
  beyond_delivered: null,
  step_file: null,
  calls: 10,
  rerendered: 1,
  rerendered_rollouts: 1,
  ...over,
});
const total = (s: LedgerStep) => Object.values(segmentsOf(s)).reduce((a, b) => a + b, 0);

describe("segmentsOf", () => {
  it("sums to what was captured whichever stages are known", () => {
    for (const s of [
      step({}),
      step({ in_loss_mask: 90, with_advantage: null }),
      step({ in_loss_mask: 90, with_advantage: 60 }),
    ])
      expect(total(s)).toBe(115);
    expect(segmentsOf(step({ in_loss_mask: 90, with_advantage: 60 }))).toMatchObject({
      with_advantage: 60,
      equal_reward: 30,
      outside_loss_mask: 10,
      delivered: 0,
    });
    expect(segmentsOf(step({}))).toMatchObject({ delivered: 100, with_advantage: 0 });
  });

  it("links a segment to its rollouts at a step, and the run's totals leave out empty ones", () => {
    const side = LEDGER_SEGMENTS.find((g) => g.key === "side_calls")!;
    expect(segmentQuery(side, 3)).toBe("ledger=side_calls&step=3");
    // Equal-reward groups: the group view's groups without signal (components/run/groups-table).
    const equal = LEDGER_SEGMENTS.find((g) => g.key === "equal_reward")!;
    expect(segmentQuery(equal, 3, "_ng_task_index")).toBe(
      "group=_ng_task_index&group_signal=none&group_step=3",
    );
    expect(segmentQuery(equal, null, "_ng_task_index")).toBe(
      "group=_ng_task_index&group_signal=none",
    );
    expect(segmentQuery(equal, 3)).toBe("ledger=delivered&step=3");
    const l = { steps: [step({}), step({ step: null })], totals: { captured: 230 } } as RunLedger;
    expect(ledgerRows(l).map((r) => r.step)).toEqual([0]);
    expect(ledgerTotals(l).map((g) => g.key)).not.toContain("with_advantage");
    expect(ledgerTotals(l).reduce((a, g) => a + g.tokens, 0)).toBe(230);
  });
});
