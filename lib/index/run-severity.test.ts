// Severity on the fixture runs, against the fixtures' own files: the model-call store (which call
// failed, with what), rollouts.jsonl (which records are masked, which scenario is the side model)
// and the generator's constants (claude-code's policy model). Summaries come from a fresh index.
import { summaryOf } from "@/lib/testing/summary";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { getRun } from "@/lib/runs/root";
import { indexedSummaries } from "@/lib/testing/sql-engine";
import { SummaryIndex } from "./run-index";
import { healthReportSchema, rolloutSummarySchema, type RolloutSummary } from "@/lib/schema";
import { computeHealth, withRunSeverity } from "@/lib/testing/health-reference";
import { applyRunFacts } from "./run-severity";

const jsonl = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** rollouts.jsonl rows by rollout id (`<task>-<rollout>`). */
function records(run: string): Map<string, Record<string, unknown>> {
  const rows = jsonl(path.join(RUNS_DIR, run, "rollouts.jsonl"));
  return new Map(rows.map((r) => [`${r._ng_task_index}-${r._ng_rollout_index}`, r]));
}

/** Per rollout, the exchanges of its model-call store in start order. */
function exchanges(run: string): Map<string, Array<Record<string, unknown>>> {
  const dir = path.join(RUNS_DIR, run, "model-calls");
  const out = new Map<string, Array<Record<string, unknown>>>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".capture.jsonl"))) {
    const xs = jsonl(path.join(dir, f));
    xs.sort((a, b) => Number(a.started_at) - Number(b.started_at));
    out.set(f.replace(/\.capture\.jsonl$/, ""), xs);
  }
  return out;
}

async function summariesOf(run: string): Promise<RolloutSummary[]> {
  const layout = await getRun(run, RUNS_DIR);
  const summaries = await indexedSummaries(new SummaryIndex(layout, null), {
    minIntervalMs: 0,
    waitMs: 60_000,
  });
  return summaries.map((s) => rolloutSummarySchema.parse(s));
}

async function served(run: string) {
  const layout = await getRun(run, RUNS_DIR);
  return withRunSeverity(await summariesOf(run), layout.manifest);
}

/** A clean trained rollout whose main chain is `p`; cases override what differs. */
const BASE: RolloutSummary = summaryOf({ main_model: "p", oov_tokens: 0 });

const codes = (s: RolloutSummary) => s.severity_reasons.map((r) => r.code);

describe("severity of the opencode runs (seed 000's 422)", () => {
  it("every before-fix rollout ends on a 422 and is trained with warnings, cut short", async () => {
    const disk = exchanges("opencode-before-fix");
    const { summaries } = await served("opencode-before-fix");
    expect(summaries).toHaveLength(12);
    for (const s of summaries) {
      const xs = disk.get(s.rollout_id) ?? [];
      const last = xs[xs.length - 1];
      expect(last?.status_code).toBe(422);
      expect(s.severity).toBe("trained_with_warnings");
      expect(codes(s)).toEqual(["cut_short"]);
      // One captured call, then the failed one: the timeline's call 2.
      expect(s.cut_short_call).toMatchObject({
        position: xs.length,
        status_code: 422,
        error_type: "extra_forbidden",
        location: "messages[2].reasoning",
      });
    }
  });

  it("no after-fix rollout is cut short (every exchange on disk is a 200) and all train", async () => {
    const disk = exchanges("opencode-after-fix");
    const { summaries } = await served("opencode-after-fix");
    expect(summaries).toHaveLength(12);
    for (const s of summaries) {
      expect((disk.get(s.rollout_id) ?? []).every((x) => x.status_code === 200)).toBe(true);
      expect(s.cut_short_call).toBeNull();
      expect(s.severity).toBe("trained");
    }
  });
});

describe("masked rollouts are masked, never trained", () => {
  for (const run of ["claude-code-capture-on", "gym-main-v1"]) {
    it(`${run}: masked exactly where rollouts.jsonl says mask_sample`, async () => {
      const recs = records(run);
      const { summaries } = await served(run);
      const maskedOnDisk = [...recs].filter(([, r]) => r.mask_sample === true).map(([id]) => id);
      expect(maskedOnDisk.length).toBeGreaterThan(0);
      const masked = summaries.filter((s) => s.severity === "masked").map((s) => s.rollout_id);
      expect(masked.sort()).toEqual(maskedOnDisk.sort());
    });
  }
});

describe("the run's policy model", () => {
  it("claude-code: the side-model rollout gets the other-model warning once policy is applied", async () => {
    const recs = records("claude-code-capture-on");
    const sideModel = [...recs].find(([, r]) => r.scenario === "side_model_heavier")?.[0];
    expect(sideModel).toBeDefined();
    const own = (await summariesOf("claude-code-capture-on")).find(
      (s) => s.rollout_id === sideModel,
    )!;
    // Alone, a summary knows its main chain's model but not the run's policy.
    expect(own.main_model).toBe("claude-sonnet-4-5");
    expect(codes(own)).not.toContain("other_model_main");
    const run = await served("claude-code-capture-on");
    expect(run.policy_model).toBe("claude-opus-4-1"); // the generator's POLICY
    const withPolicy = run.summaries.filter((s) => codes(s).includes("other_model_main"));
    expect(withPolicy.map((s) => s.rollout_id)).toEqual([sideModel]);
    expect(withPolicy[0]?.severity).toBe("trained_with_warnings");
  });

  it("inserts the warning where classifySeverity orders it and keeps masked masked", () => {
    const base = BASE;
    const facts = { policy_model: "p", capture_expected: true };
    const cut = {
      ...base,
      main_model: "q",
      severity: "trained_with_warnings" as const,
      severity_reasons: [
        { code: "cut_short", title: "cut short" },
        { code: "torn_tail", title: "torn tail" },
      ],
    };
    expect(codes(applyRunFacts(cut, facts))).toEqual([
      "cut_short",
      "other_model_main",
      "torn_tail",
    ]);
    const masked = {
      ...base,
      main_model: "q",
      severity: "masked" as const,
      severity_reasons: [{ code: "build_error", title: "build error" }],
    };
    expect(applyRunFacts(masked, facts)).toMatchObject({ severity: "masked" });
    const noCapture = { ...base, has_capture: false };
    expect(applyRunFacts(noCapture, facts)).toMatchObject({
      severity: "trained_with_warnings",
      severity_reasons: [{ code: "no_capture" }],
    });
    expect(applyRunFacts(noCapture, { ...facts, capture_expected: false })).toBe(noCapture);
  });
});

describe("health counts and alerts in the same classes", () => {
  it("claude-code: counts per class add up to the records; alerts name their class", async () => {
    const recs = records("claude-code-capture-on");
    const { summaries, policy_model } = await served("claude-code-capture-on");
    const h = healthReportSchema.parse(
      computeHealth(summaries, { pending: 3, policyModel: policy_model }),
    );
    const maskedOnDisk = [...recs.values()].filter((r) => r.mask_sample === true).length;
    expect(h.severity.masked).toBe(maskedOnDisk);
    expect(h.masked).toBe(maskedOnDisk);
    expect(h.severity.pending).toBe(3);
    expect(h.severity.trained + h.severity.trained_with_warnings + h.severity.masked).toBe(
      recs.size,
    );
    expect(h.policy_model).toBe("claude-opus-4-1");
    const other = h.alerts.find((a) => a.kind === "other_model_main");
    expect(other).toMatchObject({ verdict: "trained_with_warnings", count: 1 });
    expect(h.alerts.find((a) => a.kind === "masked_fraction")?.verdict).toBe("masked");
  });

  it("opencode-before-fix: the cut-short alert says what the banner says", async () => {
    const { summaries, policy_model } = await served("opencode-before-fix");
    const h = computeHealth(summaries, { policyModel: policy_model });
    expect(h.severity).toEqual({ trained: 0, trained_with_warnings: 12, masked: 0, pending: 0 });
    const cut = h.alerts.find((a) => a.kind === "cut_short");
    expect(cut).toMatchObject({ severity: "error", verdict: "trained_with_warnings", count: 12 });
    expect(cut?.message).toContain(
      "12 of 12 rollouts were cut short by a failed model call, all trained on with a warning",
    );
    expect(cut?.message).toContain(
      "call 2 got HTTP 422 `extra_forbidden` at `messages[2].reasoning`, and the agent stopped",
    );
  });
});
