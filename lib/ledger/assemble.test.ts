// The ledger's advantage stage when the step files log no advantages: the groups' rewards decide,
// and a group with no reward recorded leaves its step's count unknown (null), never 0 or all.
import { describe, expect, it } from "vitest";
import { assembleLedger, type LedgerInput } from "./assemble";

const sums = (step: number) => ({
  ...{ step, rollouts: 2, counted: 2, captured: 100, side_calls: 0, retries_dropped: 0 },
  ...{ quarantined: 0, branches: 0, masked: 0, delivered: 100 },
  ...{ calls: 2, rerendered: 0, rerendered_rollouts: 0 },
});

function input(signal: LedgerInput["signal"]): LedgerInput {
  return {
    runId: "r",
    sums: [sums(0)],
    stepFiles: new Map([[0, "train_data_step1.jsonl"]]),
    samples: ["0-0", "0-1"].map((id) => ({
      ...{ record_step: 0, rollout_id: id, class: "identical" as const },
      ...{ loss_tokens: 30, advantage_tokens: null },
    })),
    signal,
    equal: null,
    rerendered: [],
    issues: [],
  };
}

describe("the ledger's advantage stage from the groups", () => {
  it("counts the loss tokens of rollouts whose group's rewards differ, none of equal ones", () => {
    const differ = new Map([
      ["0-0", true],
      ["0-1", false],
    ]);
    expect(assembleLedger(input(differ)).steps[0]).toMatchObject({
      in_loss_mask: 60,
      with_advantage: 30,
    });
  });

  it("a group with no reward recorded: not known", () => {
    const unknown = new Map<string, boolean | null>([
      ["0-0", true],
      ["0-1", null],
    ]);
    expect(assembleLedger(input(unknown)).steps[0]).toMatchObject({
      in_loss_mask: 60,
      with_advantage: null,
    });
  });
});

describe("the ledger's sentence with no step file", () => {
  // Two steps of 100 delivered tokens each, nothing lost on the way, no trainer file: the share
  // stops at delivery, and step 1's 60 tokens sit in a group whose rewards are all equal.
  const noFiles: LedgerInput = {
    ...input(null),
    sums: [sums(0), sums(1)],
    stepFiles: new Map(),
    samples: [],
    equal: [{ step: 1, rollouts: 1, delivered: 60 }],
  };
  const l = assembleLedger(noFiles);

  it("says how far nothing was lost, not that nothing was", () => {
    expect(l.sentence).toContain("nothing was lost before delivery");
    expect(l.sentence).not.toContain("nothing was lost.");
  });

  it("counts the equal-reward groups' delivered tokens over the whole run", () => {
    expect(l.equal_reward).toEqual({ delivered: 60, rollouts: 1, of: 200 });
    expect(l.sentence).toContain(
      "60 delivered tokens (30%), of 1 rollout, are in GRPO groups whose rewards are all equal",
    );
  });
});

describe("the ledger's sentence with rollouts whose records name no step", () => {
  // Step 0 has its step file; a group of rollouts with no step (null) cannot have one.
  const stepless: LedgerInput = { ...input(null), sums: [sums(0), { ...sums(0), step: null }] };
  const l = assembleLedger(stepless);

  it("names them as such, never as a step", () => {
    expect(l.sentence).toContain(
      "The rollouts whose records name no step (100 tokens) are not counted",
    );
    expect(l.sentence).not.toMatch(/\b1 step without one/);
  });
});
