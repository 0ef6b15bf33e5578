import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { line, tokenRecord } from "@/lib/testing/temp-store";
import { fingerprintTree } from "@/lib/testing/fingerprint";
import { computeHealth } from "@/lib/health/health";
import { getRun } from "./runs-root";
import { cacheDir, SummaryIndex } from "./summary-index";
import { summarizeRollout } from "./summarize";
import { parseRolloutQuery, selectRollouts, toCsv, exportRow } from "./rollout-query";

function tempRun(rollouts: number): { root: string; tokens: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-index-"));
  const tokens = path.join(root, "run", "tokens");
  mkdirSync(tokens, { recursive: true });
  for (let i = 0; i < rollouts; i++) {
    const id = `${i}-0`;
    writeFileSync(path.join(tokens, `${id}.tokens.jsonl`), line(tokenRecord(id, "a", [1, 2, 3], [4, 5])) + line(tokenRecord(id, "b", [1, 2, 3, 4, 5, 6], [7], { created_at: 1786032155 })));
  }
  return { root, tokens };
}

const dbIn = () => path.join(mkdtempSync(path.join(os.tmpdir(), "rollout-lens-cache-")), "index.sqlite");

describe("summary index", () => {
  it("summarises every rollout once, re-summarises only what changed, and sees new and deleted rollouts", async () => {
    const { root, tokens } = tempRun(5);
    const run = await getRun("run", root);
    const before = fingerprintTree(path.join(root, "run"));
    const db = dbIn();
    const index = new SummaryIndex(run, db);
    let snap = await index.snapshot({ minIntervalMs: 0 });
    expect(snap.summaries.map((s) => s.rollout_id)).toEqual(["0-0", "1-0", "2-0", "3-0", "4-0"]);
    expect(snap.progress).toMatchObject({ done: 5, total: 5, running: false });
    expect(snap.summaries[0]).toMatchObject({ source: "store", n_calls: 2, chains: 1, mask_sample: false });
    expect(fingerprintTree(path.join(root, "run"))).toEqual(before); // the index never touches the store

    // A growing file is re-summarised; the others are not.
    appendFileSync(path.join(tokens, "2-0.tokens.jsonl"), line(tokenRecord("2-0", "c", [1, 2, 3, 4, 5, 6, 7, 9], [10], { created_at: 1786032156 })));
    utimesSync(path.join(tokens, "2-0.tokens.jsonl"), new Date(), new Date(Date.now() + 5000));
    snap = await index.snapshot({ minIntervalMs: 0 });
    expect(snap.progress).toMatchObject({ done: 1, total: 1 });
    expect(snap.summaries.find((s) => s.rollout_id === "2-0")!.n_calls).toBe(3);

    // A new rollout appears, a deleted one disappears.
    writeFileSync(path.join(tokens, "9-0.tokens.jsonl"), line(tokenRecord("9-0", "a", [1], [2])));
    rmSync(path.join(tokens, "0-0.tokens.jsonl"));
    snap = await index.snapshot({ minIntervalMs: 0 });
    expect(snap.summaries.map((s) => s.rollout_id)).toEqual(["1-0", "2-0", "3-0", "4-0", "9-0"]);
    expect(snap.progress.total).toBe(1);
    index.close();

    // Re-opened from SQLite: nothing to recompute.
    const again = new SummaryIndex(run, db);
    const warm = await again.snapshot({ minIntervalMs: 0 });
    expect(warm.progress.total).toBe(0);
    expect(warm.summaries).toEqual(snap.summaries);
    again.close();
  });

  it("uses worker threads for a cold index and agrees with the inline summariser", async () => {
    const { root } = tempRun(70);
    const run = await getRun("run", root);
    const index = new SummaryIndex(run, dbIn());
    const snap = await index.snapshot({ minIntervalMs: 0, waitMs: 60_000 });
    expect(snap.summaries).toHaveLength(70);
    expect(snap.progress).toMatchObject({ workers: Math.min(os.availableParallelism(), 3), in_workers: 70 });
    const inline = await summarizeRollout({ rolloutId: "33-0", tokensDir: run.tokensDir, modelCallsDir: run.modelCallsDir, profile: "seed", sideCallPatterns: [], record: null, bytes: snap.summaries.find((s) => s.rollout_id === "33-0")!.bytes, hasStoreFiles: true });
    expect(snap.summaries.find((s) => s.rollout_id === "33-0")).toEqual(inline);
    index.close();
  }, 60_000);

  it("summarises records that have no token store from the record itself", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-index-"));
    mkdirSync(path.join(root, "run"));
    writeFileSync(
      path.join(root, "run", "rollouts.jsonl"),
      line({ _ng_task_index: 0, _ng_rollout_index: 0, reward: 1, _ng_token_capture: { n_calls: 3, chains: 1, delivered_fraction: 1 } }) +
        line({ _ng_task_index: 1, _ng_rollout_index: 0, reward: 0, mask_sample: true, _ng_token_capture: { n_calls: 2, error: "ValueError: capture produced no safe trainable chain" } }) +
        "not json\n",
    );
    const index = new SummaryIndex(await getRun("run", root), null);
    const snap = await index.snapshot({ minIntervalMs: 0 });
    expect(snap.summaries.map((s) => [s.rollout_id, s.source, s.mask_sample, s.n_calls, s.reward])).toEqual([
      ["0-0", "record", false, 3, 1],
      ["1-0", "record", true, 2, 0],
    ]);
    expect(snap.unreadable_records).toEqual([{ line: 3, reason: expect.stringMatching(/not valid JSON/) }]);
  });

  it("keeps its database outside the runs root", () => {
    const prev = process.env.ROLLOUT_LENS_CACHE;
    process.env.ROLLOUT_LENS_CACHE = path.join(RUNS_DIR, "cache");
    try {
      expect(cacheDir(RUNS_DIR).startsWith(RUNS_DIR)).toBe(false);
    } finally {
      if (prev === undefined) delete process.env.ROLLOUT_LENS_CACHE;
      else process.env.ROLLOUT_LENS_CACHE = prev;
    }
  });
});

describe("health and queries on the fixture runs", () => {
  it("the 422 run: every rollout cut short while its record looks successful", async () => {
    const index = new SummaryIndex(await getRun("opencode-before-fix", RUNS_DIR), null);
    const { summaries } = await index.snapshot({ minIntervalMs: 0 });
    const h = computeHealth(summaries);
    expect(h.rollouts).toBe(12);
    expect(h.masked).toBe(0);
    expect(h.status_codes).toEqual([{ key: "200", count: 12 }, { key: "422", count: 12 }]);
    expect(h.error_categories).toEqual([{ key: "client_error", count: 12 }]);
    const cut = h.alerts.find((a) => a.kind === "cut_short")!;
    expect(cut).toMatchObject({ severity: "error", count: 12 });
    expect(cut.message).toContain("12 of 12 rollouts were cut short");
    expect(cut.message).toContain("HTTP 422 extra_forbidden at body.messages.2.reasoning");
    expect(computeHealth((await new SummaryIndex(await getRun("opencode-after-fix", RUNS_DIR), null).snapshot()).summaries).alerts).toEqual([]);
  });

  it("claude-code: masked count and reasons agree with rollouts.jsonl; side calls by reason", async () => {
    const run = await getRun("claude-code-capture-on", RUNS_DIR);
    const { summaries } = await new SummaryIndex(run, null).snapshot({ minIntervalMs: 0 });
    const records = readFileSync(run.rolloutsFile!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const h = computeHealth(summaries);
    expect(h.masked).toBe(records.filter((r) => r.mask_sample === true).length);
    expect(h.mask_reasons.find((r) => r.key === "unresolved_retry")?.count).toBe(1);
    expect(h.side_calls_by_reason.find((r) => r.key === "pattern")!.count).toBe(summaries.reduce((a, s) => a + s.side_call_reasons.pattern, 0));
    expect(h.roots_per_rollout.find((r) => r.key === "2")?.count).toBeGreaterThanOrEqual(1);
    expect(h.alerts.map((a) => a.kind)).toContain("masked_fraction");

    const masked = selectRollouts(summaries, parseRolloutQuery(new URLSearchParams("verdict=masked&sort=n_calls&dir=desc")));
    expect(masked.every((s) => s.mask_sample)).toBe(true);
    expect(masked.map((s) => s.n_calls)).toEqual([...masked.map((s) => s.n_calls)].sort((a, b) => b - a));
    expect(selectRollouts(summaries, parseRolloutQuery(new URLSearchParams("q=ValueError"))).map((s) => s.rollout_id)).toEqual(summaries.filter((s) => s.error?.includes("ValueError")).map((s) => s.rollout_id));
    expect(() => parseRolloutQuery(new URLSearchParams("sort=evil"))).toThrow(/sort/);
  });

  it("grpo-capture-on: per-step series from the records' step", async () => {
    const { summaries } = await new SummaryIndex(await getRun("grpo-capture-on", RUNS_DIR), null).snapshot({ minIntervalMs: 0 });
    const h = computeHealth(summaries);
    expect(h.per_step.map((p) => [p.step, p.rollouts])).toEqual([[0, 8], [1, 8], [2, 8]]);
    for (const p of h.per_step) expect(p.reward_mean).toBeCloseTo(summaries.filter((s) => s.step === p.step).reduce((a, s) => a + s.reward!, 0) / 8, 10);
  });

  it("CSV export quotes and neutralises formulas", () => {
    const csv = toCsv([{ ...exportRow({ rollout_id: "0-0", step: null, reward: 1, mask_sample: false, mask_reasons: [], error: '=HYPERLINK("x"), "q"', n_calls: 2, chains: 1, roots: 1, delivered_fraction: 1, side_calls: 0, quarantined: 0, failed_calls: 0, status_codes: { "200": 2 }, cut_short: null, bytes: 10, source: "store" } as never) }]);
    const [head, row] = csv.trim().split("\n");
    expect(head).toBe("rollout_id,step,reward,mask_sample,mask_reasons,error,n_calls,chains,roots,delivered_fraction,side_calls,quarantined,failed_calls,status_codes,cut_short,bytes,source");
    expect(row).toBe(`0-0,,1,false,,"'=HYPERLINK(""x""), ""q""",2,1,1,1,0,0,0,200:2,,10,store`);
  });
});
