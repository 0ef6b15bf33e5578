// The ledger of grpo-capture-on, whose step files hold samples with a wider loss mask than the
// capture's (planted by fixtures/generator/nemo-rl-steps): each step's trainer stages never hold
// more than it delivered, the rest is set apart, and together they are the step file's own count
// of loss-mask tokens (token_loss_mask × sample_loss_mask, read here from the files themselves).
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { getRun } from "@/lib/runs/root";
import { serveFixtureRuns } from "@/lib/testing/fixture-runs";
import type { RunLedger } from "@/lib/schema";
import { segmentsOf } from "@/lib/view/ledger";
import { runLedger } from "./run-ledger";

serveFixtureRuns();
const RUN = "grpo-capture-on";
let ledger: RunLedger;
beforeAll(async () => {
  ledger = await runLedger(await getRun(RUN, RUNS_DIR));
}, 60_000);

/** The step file's loss-mask tokens: train_data_step{N}.jsonl holds the records' step N − 1. */
function fileLossTokens(step: number): number {
  const file = path.join(RUNS_DIR, RUN, "logs", `train_data_step${step + 1}.jsonl`);
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { token_loss_mask: number[][]; sample_loss_mask: number[] })
    .reduce(
      (a, s) =>
        a +
        s.token_loss_mask.reduce(
          (b, m, i) => b + m.reduce((c, x) => c + x, 0) * s.sample_loss_mask[i]!,
          0,
        ),
      0,
    );
}

describe("grpo-capture-on: a trainer's loss mask wider than the capture's", () => {
  it("is set apart past what was delivered, and the two are the step file's own count", () => {
    const beyond = ledger.steps.reduce((a, s) => a + (s.beyond_delivered ?? 0), 0);
    expect(beyond).toBeGreaterThan(0);
    for (const s of ledger.steps) {
      expect(s.in_loss_mask).not.toBeNull();
      expect(s.in_loss_mask!).toBeLessThanOrEqual(s.delivered);
      expect(s.in_loss_mask! + s.beyond_delivered!).toBe(fileLossTokens(s.step!));
      const parts = Object.values(segmentsOf(s)).reduce((a, b) => a + b, 0);
      expect(parts).toBe(s.captured);
    }
    expect(ledger.totals.beyond_delivered).toBe(beyond);
    expect(ledger.sentence).toContain(
      `The trainer's loss mask also holds ${beyond} tokens past those the capture delivered`,
    );
  });
});
