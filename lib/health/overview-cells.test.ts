// A run still indexing never shows a final count or a 0 it does not know yet.
import { describe, expect, it } from "vitest";
import type { RunOverview } from "@/lib/schema/api-run-list";
import { overviewCells } from "./overview-cells";

const progress = {
  done: 16,
  total: 40,
  running: true,
  error: null,
  last_ms: null,
  workers: 0,
  in_workers: 0,
  from_records: 0,
  replacing: 0,
  records_read: null,
};
const run = (over: Partial<RunOverview>): RunOverview => ({
  id: "r",
  name: "r",
  description: "",
  capture: "on",
  builder_profile: "seed",
  profile_reason: "builder_profile: seed in run.json",
  manifest_error: null,
  store_rollouts: 16,
  has_rollout_records: true,
  has_store: true,
  has_metrics: false,
  rollouts: 16,
  masked: 0,
  masked_fraction: 0,
  severity: { trained: 14, trained_with_warnings: 2, masked: 0, pending: 24 },
  reward_mean: 0.875,
  reward: { mean: 0.875, source: "records" },
  alerts: 0,
  worst_alert: null,
  indexing: progress,
  steps: 0,
  ...over,
});

describe("overviewCells", () => {
  it("says partial counts are partial and hides what is not known", () => {
    expect(overviewCells(run({}))).toEqual({
      partial: true,
      rollouts: "16 of 40 so far",
      masked: "—",
      warnings: "—",
      reward: "—",
      reward_source: null,
      alerts: "—",
    });
    // An alert raised while indexing is counted as such: neither "—" beside it nor a final number.
    expect(overviewCells(run({ alerts: 1 })).alerts).toBe("1 alert so far");
    expect(overviewCells(run({ alerts: 3 })).alerts).toBe("3 alerts so far");
  });

  it("a cold run with nothing summarised says 0 of N so far, never a bare 0", () => {
    const cold = run({
      rollouts: 0,
      severity: { trained: 0, trained_with_warnings: 0, masked: 0, pending: 12 },
      indexing: { ...progress, done: 0, total: 12 },
    });
    expect(overviewCells(cold).rollouts).toBe("0 of 12 so far");
    expect(overviewCells(cold).masked).toBe("—");
  });

  it("a run whose listing has not counted its rollouts yet says so, not 0 of 0", () => {
    const listing = run({
      rollouts: 0,
      severity: { trained: 0, trained_with_warnings: 0, masked: 0, pending: 0 },
      indexing: { ...progress, done: 0, total: 0 },
    });
    expect(overviewCells(listing).rollouts).toBe("counting…");
  });

  it("shows final numbers once the index is done", () => {
    const done = run({
      rollouts: 40,
      masked: 3,
      masked_fraction: 0.075,
      alerts: 2,
      severity: { trained: 35, trained_with_warnings: 2, masked: 3, pending: 0 },
      indexing: { ...progress, done: 40, running: false },
    });
    expect(overviewCells(done)).toEqual({
      partial: false,
      rollouts: "40",
      masked: "3 (7.5%)",
      warnings: "2 (5.0%)",
      reward: "0.875",
      reward_source: "records: 40 rollouts",
      alerts: "2",
    });
  });

  it("a training curve's mean is shown with its source, also while the index runs", () => {
    const curve = run({ steps: 100, reward: { mean: 0.4321, source: "training curve" } });
    expect(overviewCells(curve)).toMatchObject({
      partial: true,
      reward: "0.432",
      reward_source: "training curve: 100 steps",
    });
  });

  it("a run of trainer logs only (no rollout files) says so, never 0 rollouts and 0 alerts", () => {
    const logsOnly = run({
      has_rollout_records: false,
      has_store: false,
      store_rollouts: 0,
      rollouts: 0,
      severity: { trained: 0, trained_with_warnings: 0, masked: 0, pending: 0 },
      indexing: { ...progress, running: false, done: 0, total: 0 },
      steps: 100,
      reward: { mean: 0.5, source: "training curve" },
    });
    expect(overviewCells(logsOnly)).toMatchObject({
      partial: false,
      rollouts: "no rollout files",
      masked: "—",
      warnings: "—",
      alerts: "—",
    });
    // A manifest problem is still an alert there.
    expect(overviewCells({ ...logsOnly, alerts: 1 }).alerts).toBe("1");
  });
});
