// Health over the fixture runs' summaries: the numbers and alerts the run page shows, checked
// against the fixtures' own files (rollouts.jsonl) and the generator's documented cases.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { parseRolloutQuery } from "@/lib/index/query";
import { selectRollouts } from "@/lib/testing/rollout-query-reference";
import { getRun } from "@/lib/runs/root";
import { SummaryIndex } from "@/lib/index/run-index";
import { healthReportSchema } from "@/lib/schema";
import { indexedSummaries } from "@/lib/testing/sql-engine";
import { computeHealth } from "@/lib/testing/health-reference";

describe("health and queries on the fixture runs", () => {
  it("the 422 run: every rollout cut short while its record looks successful", async () => {
    const index = new SummaryIndex(await getRun("opencode-before-fix", RUNS_DIR), null);
    const summaries = await indexedSummaries(index);
    const h = healthReportSchema.parse(computeHealth(summaries));
    expect(h.rollouts).toBe(12);
    expect(h.masked).toBe(0);
    expect(h.status_codes).toEqual([
      { key: "200", count: 12 },
      { key: "422", count: 12 },
    ]);
    expect(h.error_categories).toEqual([{ key: "client_error", count: 12 }]);
    const cut = h.alerts.find((a) => a.kind === "cut_short")!;
    expect(cut).toMatchObject({ severity: "error", count: 12 });
    expect(cut.message).toContain("12 of 12 rollouts were cut short");
    expect(cut.message).toContain("got HTTP 422 `extra_forbidden` at `messages[2].reasoning`");
    expect(
      computeHealth(
        await indexedSummaries(
          new SummaryIndex(await getRun("opencode-after-fix", RUNS_DIR), null),
          {},
        ),
      ).alerts,
    ).toEqual([]);
  });

  it("claude-code: masked count and reasons agree with rollouts.jsonl; side calls by reason", async () => {
    const run = await getRun("claude-code-capture-on", RUNS_DIR);
    const summaries = await indexedSummaries(new SummaryIndex(run, null));
    const records = readFileSync(run.rolloutsFile!, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const h = computeHealth(summaries);
    expect(h.masked).toBe(records.filter((r) => r.mask_sample === true).length);
    expect(h.mask_reasons.find((r) => r.key === "unresolved_retry")?.count).toBe(1);
    expect(h.side_calls_by_reason.find((r) => r.key === "pattern")!.count).toBe(
      summaries.reduce((a, s) => a + s.side_call_reasons.pattern, 0),
    );
    expect(h.roots_per_rollout.find((r) => r.key === "2")?.count).toBeGreaterThanOrEqual(1);
    expect(h.alerts.map((a) => a.kind)).toContain("masked_fraction");

    const masked = selectRollouts(
      summaries,
      parseRolloutQuery(new URLSearchParams("verdict=masked&sort=n_calls&dir=desc")),
    );
    expect(masked.every((s) => s.mask_sample)).toBe(true);
    expect(masked.map((s) => s.n_calls)).toEqual(
      [...masked.map((s) => s.n_calls)].sort((a, b) => b - a),
    );
    expect(
      selectRollouts(summaries, parseRolloutQuery(new URLSearchParams("q=ValueError"))).map(
        (s) => s.rollout_id,
      ),
    ).toEqual(summaries.filter((s) => s.error?.includes("ValueError")).map((s) => s.rollout_id));
    expect(() => parseRolloutQuery(new URLSearchParams("sort=evil"))).toThrow(/sort/);
  });

  it("grpo-capture-on: per-step series from the records' step", async () => {
    const summaries = await indexedSummaries(
      new SummaryIndex(await getRun("grpo-capture-on", RUNS_DIR), null),
    );
    const h = computeHealth(summaries);
    expect(h.per_step.map((p) => [p.step, p.rollouts])).toEqual([
      [0, 8],
      [1, 8],
      [2, 8],
    ]);
    for (const p of h.per_step)
      expect(p.reward_mean).toBeCloseTo(
        summaries.filter((s) => s.step === p.step).reduce((a, s) => a + s.reward!, 0) / 8,
        10,
      );
  });
});
