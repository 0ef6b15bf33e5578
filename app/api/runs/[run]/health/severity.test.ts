// The run routes serve the severity model: health counts per class and the policy model, rollouts
// pages with each row's class (the run's warnings applied) and the severity filter, all parsed
// with the contract's strict schemas. Expected values come from the fixture files on disk.
import { serveFixtureRuns, req, runCtx } from "@/lib/testing/fixture-runs";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { rolloutPageSchema, runHealthSchema, runListSchema } from "@/lib/schema";
import { GET as getRuns } from "../../route";
import { GET as getRollouts } from "../rollouts/route";
import { GET as getHealth } from "./route";

serveFixtureRuns();

const ctx = runCtx;
const once = async (run: string, query: string) =>
  rolloutPageSchema.parse(await (await getRollouts(req(`/x?${query}`), ctx(run))).json());
/** The page once the run's first index is complete (a loaded machine may take over the wait). */
const page = (run: string, query: string) =>
  vi.waitFor(
    async () => {
      const p = await once(run, query);
      if (p.progress.running) throw new Error(`indexing ${run}: ${p.progress.done}`);
      return p;
    },
    { timeout: 30_000, interval: 100 },
  );

/** Records of a run with `mask_sample: true`, by rollout id. */
function maskedIds(run: string): string[] {
  const lines = readFileSync(path.join(RUNS_DIR, run, "rollouts.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  return lines
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => r.mask_sample === true)
    .map((r) => `${r._ng_task_index}-${r._ng_rollout_index}`);
}

describe("severity through the run routes", () => {
  it("claude-code: the rollouts page names the policy, marks the side-model rollout and filters by class", async () => {
    const all = await page("claude-code-capture-on", "limit=5000");
    expect(all.policy_model).toBe("claude-opus-4-1");
    const other = all.rollouts.filter((s) =>
      s.severity_reasons.some((r) => r.code === "other_model_main"),
    );
    expect(other.map((s) => [s.rollout_id, s.main_model, s.severity])).toEqual([
      ["6-0", "claude-sonnet-4-5", "trained_with_warnings"],
    ]);
    const masked = await page("claude-code-capture-on", "severity=masked&limit=5000");
    expect(masked.rollouts.map((s) => s.rollout_id).sort()).toEqual(
      maskedIds("claude-code-capture-on").sort(),
    );
    const warned = await page(
      "claude-code-capture-on",
      "severity=trained_with_warnings&limit=5000",
    );
    expect(warned.rollouts.map((s) => s.rollout_id)).toContain("6-0");
    expect(warned.rollouts.every((s) => s.severity === "trained_with_warnings")).toBe(true);
    const bySeverity = await page("claude-code-capture-on", "sort=severity&dir=desc&limit=5000");
    expect(bySeverity.rollouts[0]?.severity).toBe("masked");
  });

  it("health and the runs list count the classes; masked matches the records", async () => {
    const h = runHealthSchema.parse(
      await (await getHealth(req("/x"), ctx("opencode-before-fix"))).json(),
    );
    expect(h.severity).toEqual({ trained: 0, trained_with_warnings: 12, masked: 0, pending: 0 });
    // The list counts what is summarised so far: wait until both runs' first index has completed.
    const runs = await vi.waitFor(
      async () => {
        const list = runListSchema.parse(await (await getRuns()).json()).runs;
        const busy = list.filter(
          (r) =>
            ["gym-main-v1", "opencode-after-fix"].includes(r.id) &&
            (r.indexing.running || r.indexing.last_ms === null || r.severity.pending > 0),
        );
        if (busy.length > 0) throw new Error(`indexing ${busy.map((r) => r.id).join(", ")}`);
        return list;
      },
      { timeout: 30_000, interval: 100 },
    );
    const gym = runs.find((r) => r.id === "gym-main-v1");
    expect(gym?.severity.masked).toBe(maskedIds("gym-main-v1").length);
    const after = runs.find((r) => r.id === "opencode-after-fix");
    expect(after?.severity).toEqual({
      trained: 12,
      trained_with_warnings: 0,
      masked: 0,
      pending: 0,
    });
  });
});
