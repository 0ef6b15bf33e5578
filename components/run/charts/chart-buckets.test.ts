// Over the sample runs: every bar of every health chart (and every step) links to a table query
// that lists exactly the rollouts the bar counts. The expected rollouts are picked from the served
// summaries by each bar's own definition, written here apart from the filters under test; on
// claude-code-capture-on also from its files (records' scenarios, token files' lines).
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { rolloutPage } from "@/lib/index/served";
import { runHealth } from "@/lib/health/run-health";
import { parseRolloutQuery } from "@/lib/index/query";
import { getRun } from "@/lib/runs/root";
import { indexFor } from "@/lib/index/run-index";
import type { Count, RolloutSummary, RunHealth } from "@/lib/schema/api-runs";
import { serveFixtureRuns } from "@/lib/testing/fixture-runs";
import { chartBucketQuery, type BucketChart } from "@/lib/view/rollout-nav";

serveFixtureRuns();
const RUNS = [
  "claude-code-capture-on",
  "gym-main-v1",
  "gym-main-example", // a retired tombstone: a build_error mask reason with no "build error" title
  "opencode-before-fix",
  "grpo-capture-on",
];
beforeAll(async () => {
  for (const id of RUNS) await indexFor(await getRun(id, RUNS_DIR)).snapshot({ waitMs: 60_000 });
});

const natural = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });

async function tableRows(runId: string, query: string): Promise<string[]> {
  const q = parseRolloutQuery(new URLSearchParams(`${query}&limit=5000`));
  const page = await rolloutPage(await getRun(runId, RUNS_DIR), q);
  return page.rollouts.map((r) => r.rollout_id).sort(natural);
}

/** How many of a bar's things a rollout holds (0: not in the bar), by the bar's definition. */
type Weigh = (s: RolloutSummary, key: string) => number;
const one = (yes: boolean) => (yes ? 1 : 0);

function inDeliveredBucket(x: number | null, key: string): boolean {
  if (x === null) return false;
  if (key === "1.0") return x >= 1;
  return x >= Number(key) - 1e-9 && x < Number(key) + 0.1 - 1e-9 && x < 1;
}

function maskedWith(s: RolloutSummary, key: string): boolean {
  if (s.mask_reasons.some((r) => r === key)) return true;
  if (s.severity !== "masked" || s.mask_reasons.length > 0) return false;
  return key === "error"
    ? s.error !== null && s.error !== ""
    : key === "masked_by_record" && !s.error;
}

const CHARTS: Array<[BucketChart, (h: RunHealth) => Count[], Weigh]> = [
  [
    "verdicts",
    (h) =>
      (["trained", "trained_with_warnings", "masked"] as const).map((k) => ({
        key: k,
        count: h.severity[k],
      })),
    (s, k) => one(s.severity === k),
  ],
  [
    "severity-reasons",
    (h) => h.severity_reasons,
    (s, k) => one(s.severity_reasons.some((r) => r.title === k)),
  ],
  ["mask-reasons", (h) => h.mask_reasons, (s, k) => one(maskedWith(s, k))],
  [
    "delivered",
    (h) => h.delivered_fraction,
    (s, k) => one(inDeliveredBucket(s.delivered_fraction, k)),
  ],
  [
    "chains",
    (h) => h.chains_per_rollout,
    (s, k) => one(s.chains !== null && s.chains === Number(k)),
  ],
  ["roots", (h) => h.roots_per_rollout, (s, k) => one(s.roots !== null && s.roots === Number(k))],
  ["calls", (h) => h.calls_per_rollout, (s, k) => one(s.n_calls === Number(k))],
  [
    "side-calls",
    (h) => h.side_calls_by_reason,
    (s, k) =>
      k === "pattern" ? s.side_call_reasons.pattern : s.side_call_reasons.self_calibration,
  ],
  ["fallbacks", (h) => h.fallbacks_by_reason, (s, k) => s.fallbacks[k] ?? 0],
  ["status", (h) => h.status_codes, (s, k) => s.status_codes[k] ?? 0],
  ["error-categories", (h) => h.error_categories, (s, k) => s.error_categories[k] ?? 0],
];

describe.each(RUNS)("%s: a chart's bar lists exactly its rollouts", (runId) => {
  it("for every bar of every count chart", async () => {
    const health = await runHealth(await getRun(runId, RUNS_DIR));
    const all = (
      await rolloutPage(
        await getRun(runId, RUNS_DIR),
        parseRolloutQuery(new URLSearchParams("limit=5000")),
      )
    ).rollouts;
    expect(all).toHaveLength(health.rollouts);
    let bars = 0;
    for (const [chart, countsOf, weigh] of CHARTS) {
      for (const { key, count } of countsOf(health)) {
        const held = all
          .map((s) => [s.rollout_id, weigh(s, key)] as const)
          .filter(([, n]) => n > 0);
        const query = chartBucketQuery(chart, key);
        expect(query, `${chart} ${key}`).not.toBeNull();
        expect(await tableRows(runId, query!), `${chart} ${key}: ${query}`).toEqual(
          held.map(([id]) => id).sort(natural),
        );
        // The bar counts exactly what those rollouts hold (rollouts, or their calls).
        expect(
          held.reduce((a, [, n]) => a + n, 0),
          `${chart} ${key} count`,
        ).toBe(count);
        bars++;
      }
    }
    expect(bars).toBeGreaterThan(3);
  });

  it("for every step of the per-step charts", async () => {
    const health = await runHealth(await getRun(runId, RUNS_DIR));
    for (const p of health.per_step)
      expect(await tableRows(runId, chartBucketQuery("step", String(p.step))!)).toHaveLength(
        p.rollouts,
      );
  });
});

describe("claude-code-capture-on: bars against the run's files", () => {
  const dir = path.join(RUNS_DIR, "claude-code-capture-on");
  const records = readFileSync(path.join(dir, "rollouts.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map(
      (l) =>
        JSON.parse(l) as { _ng_task_index: number; _ng_rollout_index: number; scenario?: string },
    );
  const idOf = (r: (typeof records)[number]) => `${r._ng_task_index}-${r._ng_rollout_index}`;

  it("the unresolved-retry bar lists the rollout whose final retry the generator left unresolved", async () => {
    const expected = records.filter((r) => r.scenario === "final_retry_unresolved").map(idOf);
    expect(expected.length).toBeGreaterThan(0);
    const query = chartBucketQuery("mask-reasons", "unresolved_retry")!;
    expect(await tableRows("claude-code-capture-on", query)).toEqual(expected.sort(natural));
    expect(
      await tableRows(
        "claude-code-capture-on",
        chartBucketQuery("severity-reasons", "unresolved final retry")!,
      ),
    ).toEqual(expected);
  });

  it("a calls-per-rollout bar lists the rollouts whose token file has that many entries", async () => {
    const lines = (id: string) => {
      const text = readFileSync(path.join(dir, "tokens", `${id}.tokens.jsonl`), "utf8");
      // A torn last line (no newline, not JSON) is no entry.
      return text
        .split("\n")
        .filter((l, i, all) => l.trim() !== "" && (i < all.length - 1 || isJson(l))).length;
    };
    const byCalls = new Map<number, string[]>();
    for (const r of records) {
      const id = idOf(r);
      const n = lines(id);
      byCalls.set(n, [...(byCalls.get(n) ?? []), id]);
    }
    expect(byCalls.size).toBeGreaterThan(1);
    for (const [n, ids] of byCalls)
      expect(
        await tableRows("claude-code-capture-on", chartBucketQuery("calls", String(n))!),
        `${n} calls`,
      ).toEqual(ids.sort(natural));
  });
});

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
