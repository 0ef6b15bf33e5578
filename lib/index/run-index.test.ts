import { execFileSync } from "node:child_process";
import { summaryOf } from "@/lib/testing/summary";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { processCache } from "@/lib/cache/registry";
import { rolloutSummarySchema } from "@/lib/schema";
import { line, tempRun, tokenRecord } from "@/lib/testing/temp-store";
import { fingerprintTree } from "@/lib/testing/fingerprint";
import { readMetrics } from "@/lib/runs/metrics";
import { getRun } from "@/lib/runs/root";
import { cacheDir, indexFor, SummaryIndex } from "./run-index";
import { summarizeRollout } from "@/lib/rollout/summarize";
import { csvLine, EXPORT_COLUMNS, exportRow } from "./query";
import { toCsv } from "@/lib/testing/rollout-query-reference";

const summary = summaryOf;

/** Descriptors of this process open on `file` (Linux /proc, which this suite needs: it fails without). */
function descriptorsOn(file: string): number {
  if (!existsSync("/proc/self/fd"))
    throw new Error("/proc/self/fd is missing: cannot count open files");
  return readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;
}

// The worker test runs the built worker: build it from the current source first (esbuild, < 1 s).
beforeAll(() => void execFileSync(process.execPath, ["scripts/build-node.mjs"]), 60_000);

const dbIn = () =>
  path.join(mkdtempSync(path.join(os.tmpdir(), "rollout-lens-cache-")), "index.sqlite");

describe("summary index", () => {
  it("summarises every rollout once, re-summarises only what changed, and sees new and deleted rollouts", async () => {
    const { root, tokens } = tempRun(5);
    const run = await getRun("run", root);
    const before = fingerprintTree(path.join(root, "run"));
    const db = dbIn();
    const index = new SummaryIndex(run, db);
    let snap = await index.snapshot({ minIntervalMs: 0 });
    let all = index.all();
    expect(all.map((s) => s.rollout_id)).toEqual(["0-0", "1-0", "2-0", "3-0", "4-0"]);
    expect(snap.progress).toMatchObject({ done: 5, total: 5, running: false });
    expect(all[0]).toMatchObject({
      source: "store",
      n_calls: 2,
      chains: 1,
      mask_sample: false,
    });
    for (const s of all) rolloutSummarySchema.parse(s); // the API contract, strictly
    expect(fingerprintTree(path.join(root, "run"))).toEqual(before); // the index never touches the store

    // A growing file is re-summarised; the others are not.
    appendFileSync(
      path.join(tokens, "2-0.tokens.jsonl"),
      line(tokenRecord("2-0", "c", [1, 2, 3, 4, 5, 6, 7, 9], [10], { created_at: 1786032156 })),
    );
    utimesSync(path.join(tokens, "2-0.tokens.jsonl"), new Date(), new Date(Date.now() + 5000));
    snap = await index.snapshot({ minIntervalMs: 0 });
    // Its old row stood for it while it ran (lib/health/index-state), and stands for nothing now.
    expect(snap.progress).toMatchObject({ done: 1, total: 1, replacing: 0 });
    expect(index.all().find((s) => s.rollout_id === "2-0")!.n_calls).toBe(3);

    // A new rollout appears, a deleted one disappears.
    writeFileSync(path.join(tokens, "9-0.tokens.jsonl"), line(tokenRecord("9-0", "a", [1], [2])));
    rmSync(path.join(tokens, "0-0.tokens.jsonl"));
    snap = await index.snapshot({ minIntervalMs: 0 });
    all = index.all();
    expect(all.map((s) => s.rollout_id)).toEqual(["1-0", "2-0", "3-0", "4-0", "9-0"]);
    expect(snap.progress.total).toBe(1);
    index.close();

    // Re-opened from SQLite: nothing to recompute.
    const again = new SummaryIndex(run, db);
    const warm = await again.snapshot({ minIntervalMs: 0 });
    expect(warm.progress.total).toBe(0);
    expect(again.all()).toEqual(all);
    again.close();
  });

  it("uses worker threads for a cold index and agrees with the inline summariser", async () => {
    const { root } = tempRun(70);
    const run = await getRun("run", root);
    const index = new SummaryIndex(run, dbIn());
    const snap = await index.snapshot({ minIntervalMs: 0, waitMs: 60_000 });
    const all = index.all();
    expect(all).toHaveLength(70);
    expect(snap.progress).toMatchObject({
      workers: Math.min(os.availableParallelism(), 8),
      in_workers: 70,
    });
    const inline = await summarizeRollout({
      rolloutId: "33-0",
      tokensDir: run.tokensDir,
      modelCallsDir: run.modelCallsDir,
      profile: "seed",
      sideCallPatterns: [],
      record: null,
      bytes: all.find((s) => s.rollout_id === "33-0")!.bytes,
      hasStoreFiles: true,
    });
    expect(all.find((s) => s.rollout_id === "33-0")).toEqual(inline);
    index.close();
  }, 60_000);

  it("summarises records that have no token store from the record itself", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-index-"));
    mkdirSync(path.join(root, "run"));
    writeFileSync(
      path.join(root, "run", "rollouts.jsonl"),
      line({
        _ng_task_index: 0,
        _ng_rollout_index: 0,
        reward: 1,
        _ng_token_capture: { n_calls: 3, chains: 1, delivered_fraction: 1 },
      }) +
        line({
          _ng_task_index: 1,
          _ng_rollout_index: 0,
          reward: 0,
          mask_sample: true,
          _ng_token_capture: {
            n_calls: 2,
            error: "ValueError: capture produced no safe trainable chain",
          },
        }) +
        "not json\n",
    );
    const index = new SummaryIndex(await getRun("run", root), null);
    const snap = await index.snapshot({ minIntervalMs: 0 });
    expect(
      index.all().map((s) => [s.rollout_id, s.source, s.mask_sample, s.n_calls, s.reward]),
    ).toEqual([
      ["0-0", "record", false, 3, 1],
      ["1-0", "record", true, 2, 0],
    ]);
    expect(snap.unreadable_records).toEqual([
      { line: 3, reason: expect.stringMatching(/not valid JSON/) },
    ]);
  });

  it("names a rollouts.jsonl or metrics.jsonl that is a directory instead of showing a run without them", async () => {
    const { root } = tempRun(3);
    mkdirSync(path.join(root, "run", "rollouts.jsonl"));
    mkdirSync(path.join(root, "run", "metrics.jsonl"));
    const run = await getRun("run", root);
    const index = new SummaryIndex(run, dbIn());
    const snap = await index.snapshot({ minIntervalMs: 0, waitMs: 60_000 });
    expect(snap.records_error).toBe(
      "rollouts.jsonl: not a regular file (a directory, FIFO or device); refused",
    );
    // The rollouts are still served, from their token stores.
    expect(index.all().map((s) => [s.rollout_id, s.source])).toEqual([
      ["0-0", "store"],
      ["1-0", "store"],
      ["2-0", "store"],
    ]);
    index.close();
    expect((await readMetrics(run.metricsFile)).error).toMatch(
      /^metrics\.jsonl: .*not a regular file/,
    );
  }, 60_000);

  it("holds the database open only while a refresh runs", async () => {
    const { root } = tempRun(3);
    const db = dbIn();
    const index = new SummaryIndex(await getRun("run", root), db);
    await index.snapshot({ minIntervalMs: 0 });
    expect(existsSync(db)).toBe(true);
    // The refresh's finally closes it after the snapshot resolves; the process's other
    // connections to the file (the trigram writer's job, the health pass) close as they finish.
    await expect.poll(() => descriptorsOn(db), { timeout: 10_000 }).toBe(0);
  });

  it("keeps every run's index in one bounded cache and drops the least recently used", async () => {
    const prev = process.env.ROLLOUT_LENS_CACHE;
    process.env.ROLLOUT_LENS_CACHE = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-cache-"));
    // The first caller fixes a cache's bound: one run here (an index holds no rollouts, so runs
    // are what it counts), so the indexes of two runs cannot both stay.
    const cache = processCache<SummaryIndex>("summary-indexes", "entries", 1);
    expect(cache.stats.bound).toBe(1);
    try {
      const a = tempRun(5),
        b = tempRun(8);
      const runA = await getRun("run", a.root),
        runB = await getRun("run", b.root);
      const first = indexFor(runA, a.root);
      await first.snapshot({ minIntervalMs: 0 });
      expect(indexFor(runA, a.root)).toBe(first);
      expect(cache.stats.weight).toBe(1);
      await indexFor(runB, b.root).snapshot({ minIntervalMs: 0 }); // past the bound: run a's goes
      expect(cache.stats).toMatchObject({ entries: 1, weight: 1, evictions: 1 });
      const again = indexFor(runA, a.root);
      expect(again).not.toBe(first);
      const warm = await again.snapshot({ minIntervalMs: 0 });
      expect(warm.count).toBe(5);
      expect(warm.progress.total).toBe(0); // re-opened from its database, nothing recomputed
    } finally {
      if (prev === undefined) delete process.env.ROLLOUT_LENS_CACHE;
      else process.env.ROLLOUT_LENS_CACHE = prev;
    }
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

describe("exports", () => {
  it("CSV export quotes and neutralises formulas", () => {
    const csv = toCsv([
      { ...exportRow(summary({ error: '=HYPERLINK("x"), "q"', status_codes: { "200": 2 } })) },
    ]);
    const [head, row] = csv.trim().split("\n");
    expect(head).toBe(
      "rollout_id,step,reward,mask_sample,severity,severity_reasons,mask_reasons,error,n_calls,chains,roots,delivered_fraction,expert_fallback_fraction,side_calls,quarantined,failed_calls,lost_calls,status_codes,cut_short,bytes,source",
    );
    expect(row).toBe(
      `"0-0",,1,false,"trained","","","'=HYPERLINK(""x""), ""q""",2,1,1,1,,0,0,0,0,"200:2",,10,"store"`,
    );
  });

  it.each([
    [" =1+1", `"' =1+1"`],
    ["\n=cmd|' /C calc'!A0", `"'\n=cmd|' /C calc'!A0"`],
    ["\t@SUM(A1)", `"'\t@SUM(A1)"`],
    ["\uFF1D1+1", `"'\uFF1D1+1"`],
    ["\u3000\uFF0B1", `"'\u3000\uFF0B1"`],
    ["a;=1", `"a;=1"`],
    ["x,=1", `"x,=1"`],
    ["HTTP 422", `"HTTP 422"`],
  ])("CSV neutralises a formula start in %j and quotes the cell", (error, cell) => {
    const line = csvLine(exportRow(summary({ error })));
    const at = EXPORT_COLUMNS.indexOf("error");
    // The cell is the `at`-th field; fields before it hold no comma or quote inside quotes.
    const before = line.split(",").slice(0, at).join(",").length + 1;
    expect(line.slice(before, before + cell.length)).toBe(cell);
  });
});
