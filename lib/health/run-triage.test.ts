// The home page's order: runs with errors or masked rollouts first, then runs with warnings, then
// healthy runs, each by name; and the alert a row leads with. Over hand-built rows and the fixture
// runs (opencode-before-fix: 12 tasks each cut short by an HTTP 422, its run.json says).
import { beforeAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { listRuns } from "@/lib/runs/root";
import { indexFor } from "@/lib/index/run-index";
import { serveFixtureRuns } from "@/lib/testing/fixture-runs";
import { describeRuns } from "./run-overview";
import { byTriage, triageRank, worstAlert } from "./run-triage";

const none = { trained: 4, trained_with_warnings: 0, masked: 0, pending: 0 };
const row = (id: string, over: Partial<Parameters<typeof triageRank>[0]> = {}) => ({
  id,
  name: id,
  masked: 0,
  alerts: 0,
  severity: none,
  manifest_error: null,
  worst_alert: null,
  ...over,
});
const alert = (severity: "error" | "warning", verdict: "masked" | null, count: number) => ({
  severity,
  verdict,
  count,
});

describe("triage order", () => {
  it("puts errors and masked rollouts first, warnings next, healthy runs last, each by name", () => {
    const runs = [
      row("a-healthy"),
      row("b-warned", { alerts: 1, worst_alert: alert("warning", null, 1) }),
      row("c-masked", { masked: 2, alerts: 1, worst_alert: alert("warning", "masked", 2) }),
      row("d-cut-short", { alerts: 1, worst_alert: alert("error", null, 12) }),
      row("e-bad-manifest", { manifest_error: "run.json: unknown key `x`" }),
      row("f-warnings-only", { severity: { ...none, trained_with_warnings: 1 } }),
    ];
    expect([...runs].sort(byTriage).map((r) => r.id)).toEqual([
      "c-masked",
      "d-cut-short",
      "e-bad-manifest",
      "b-warned",
      "f-warnings-only",
      "a-healthy",
    ]);
  });

  it("a row leads with an error, then an alert naming masked rollouts, then the most rollouts", () => {
    const w1 = alert("warning", null, 9);
    const w2 = alert("warning", "masked", 1);
    const e = alert("error", null, 1);
    expect(worstAlert([w1, w2])).toBe(w2);
    expect(worstAlert([w1, w2, e])).toBe(e);
    expect(worstAlert([alert("warning", null, 1), w1])).toBe(w1);
    expect(worstAlert([])).toBeNull();
  });
});

describe("the fixture runs' home page", () => {
  serveFixtureRuns();
  // Whole indexes: the list's short wait would otherwise show a cold run's records alone.
  beforeAll(async () => {
    for (const run of await listRuns(RUNS_DIR)) await indexFor(run).snapshot({ waitMs: 60_000 });
  }, 120_000);

  it("lists opencode-before-fix above every healthy run, with its cut-short alert in words", async () => {
    const runs = await describeRuns(await listRuns(RUNS_DIR));
    const at = runs.findIndex((r) => r.id === "opencode-before-fix");
    const before = runs[at]!;
    expect(before.worst_alert?.kind).toBe("cut_short");
    expect(before.worst_alert?.message).toMatch(/^12 of 12 rollouts were cut short/);
    expect(before.worst_alert?.table_query).toMatch(/cut_short/); // its link lists them
    const healthy = runs.flatMap((r, i) => (r.alerts === 0 && r.masked === 0 ? [i] : []));
    expect(healthy.length).toBeGreaterThan(0);
    for (const i of healthy) expect(i).toBeGreaterThan(at);
  }, 60_000);

  it("shows one mean reward per run: the curve's for a capture-off run with a curve", async () => {
    const runs = await describeRuns(await listRuns(RUNS_DIR));
    const off = runs.find((r) => r.id === "grpo-capture-off")!;
    expect(off.steps).toBeGreaterThan(0);
    expect(off.reward.source).toBe("training curve");
    expect(off.reward.mean?.toFixed(3)).toBe("0.546"); // README's bundled runs: train/reward mean
    const on = runs.find((r) => r.id === "grpo-capture-on")!;
    expect(on.reward).toMatchObject({ source: "training curve" });
    expect(on.reward.mean?.toFixed(3)).toBe("0.552"); // not its 24 records' mean
  }, 60_000);
});
