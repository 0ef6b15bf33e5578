// The ledger's equal-reward count claims only groups of two or more unmasked rewards: in
// search-phrases every task has one rollout (read from its records here), so nothing says its
// tokens sit in "GRPO groups whose rewards are all equal".
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { getRun } from "@/lib/runs/root";
import { serveFixtureRuns } from "@/lib/testing/fixture-runs";
import { runLedger } from "./run-ledger";

serveFixtureRuns();
const RUN = "search-phrases";

describe("a run whose groups have one rollout each", () => {
  it("counts no equal-reward tokens and says nothing of them", async () => {
    const records = readFileSync(path.join(RUNS_DIR, RUN, "rollouts.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { _ng_task_index: number; step?: number });
    const groups = new Set(records.map((r) => `${r._ng_task_index}/${r.step ?? ""}`));
    expect(groups.size).toBe(records.length);
    const ledger = await runLedger(await getRun(RUN, RUNS_DIR));
    expect(ledger.equal_reward?.delivered ?? 0).toBe(0);
    expect(ledger.sentence).not.toContain("rewards are all equal");
  });
});
