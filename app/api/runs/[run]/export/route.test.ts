// The run routes over the fixture runs, through their real handlers: GET /api/runs, a rollouts
// page, health and both export formats parse with the contract's schemas (strict), and the export
// holds the same rows, in the same order, as the table for the same filters.
import { serveFixtureRuns, req, runCtx } from "@/lib/testing/fixture-runs";
import { describe, expect, it, vi } from "vitest";
import { EXPORT_COLUMNS } from "@/lib/index/query";
import { exportRowsSchema, rolloutPageSchema, runHealthSchema, runListSchema } from "@/lib/schema";
import { GET as getRuns } from "../../route";
import { GET as getHealth } from "../health/route";
import { GET as getRollouts } from "../rollouts/route";
import { GET as getExport } from "./route";

serveFixtureRuns();

const ctx = runCtx;

describe("run routes on the fixture runs", () => {
  it("GET /api/runs lists every fixture run in the contract's shape", async () => {
    const { runs } = runListSchema.parse(await (await getRuns()).json());
    expect(runs.find((r) => r.id === "gym-main-v1")).toMatchObject({
      capture: "on",
      // run.json asks for auto; the list says what auto chose and why (Gym main's state files).
      builder_profile: "gym-v1",
      profile_reason: expect.stringMatching(/state files found → gym-v1/),
      manifest_error: null,
      has_metrics: false,
    });
  });

  it("health and a rollouts page parse strictly", async () => {
    // While the run's index runs, health answers at once with its progress: wait for the whole run.
    const health = await vi.waitFor(
      async () => {
        const h = runHealthSchema.parse(
          await (await getHealth(req("/x"), ctx("claude-code-capture-on"))).json(),
        );
        if (h.progress.running) throw new Error("the run's index is still running");
        return h;
      },
      { timeout: 60_000, interval: 50 },
    );
    expect(health.run_id).toBe("claude-code-capture-on");
    const page = rolloutPageSchema.parse(
      await (
        await getRollouts(req("/x?limit=5&sort=n_calls&dir=desc"), ctx("claude-code-capture-on"))
      ).json(),
    );
    expect(page.rollouts).toHaveLength(5);
    expect(page.all).toBe(health.rollouts);
  });

  it("the JSON and CSV exports are the table's rows for the same filters", async () => {
    const filters = "verdict=masked&sort=n_calls&dir=desc";
    // The table answers at once while the run's index runs (with its progress); the export waits
    // for the whole run. Compare them once the index has completed.
    const tableRows = async () =>
      rolloutPageSchema.parse(
        await (
          await getRollouts(req(`/x?${filters}&limit=5000`), ctx("claude-code-capture-on"))
        ).json(),
      );
    const page = await vi.waitFor(
      async () => {
        const p = await tableRows();
        if (p.progress.running) throw new Error("the run's index is still running");
        return p;
      },
      { timeout: 60_000, interval: 50 },
    );
    const json = await getExport(req(`/x?format=json&${filters}`), ctx("claude-code-capture-on"));
    expect(json.headers.get("content-disposition")).toBe(
      'attachment; filename="claude-code-capture-on-rollouts.json"',
    );
    const rows = exportRowsSchema.parse(await json.json());
    expect(rows.map((r) => r.rollout_id)).toEqual(page.rollouts.map((r) => r.rollout_id));
    expect(rows.every((r) => r.mask_sample)).toBe(true);
    // Every masked row says so in the severity column, with its reasons' codes.
    expect(rows.every((r) => r.severity === "masked" && r.severity_reasons !== "")).toBe(true);
    expect(rows.map((r) => r.severity_reasons)).toEqual(
      page.rollouts.map((r) => r.severity_reasons.map((x) => x.code).join(" ")),
    );
    const csv = await (
      await getExport(req(`/x?format=csv&${filters}`), ctx("claude-code-capture-on"))
    ).text();
    const lines = csv.trim().split("\n");
    expect(lines[0]).toBe(EXPORT_COLUMNS.join(","));
    expect(lines).toHaveLength(rows.length + 1);
  });

  it("refuses an unknown export format", async () => {
    const res = await getExport(req("/x?format=xml"), ctx("gym-main-v1"));
    expect(res.status).toBe(400);
  });
});
