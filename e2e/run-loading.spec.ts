import type { ChildProcess } from "node:child_process";
import { cpSync, existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { grpoRewardCurves } from "../fixtures/generator/grpo-curves";
import { writeLargeRun } from "../fixtures/generator/large";
import { FIXTURE_RUNS } from "./support/paths";
import { scratchDir, startNext, stopNext } from "./support/server";

// A run page that tells the truth while it loads: a cold index of 10,000 rollouts on a
// server of its own (the shared e2e root has no such run), with a fresh index cache so the index
// is cold; and runs as they are: a capture-off run and the sources of a number shown twice.

const LARGE = "large-run";
const ROLLOUTS = 10_000;
const WARM_RUN = "small-sample";

/** One look at the page, taken by a MutationObserver on every change (no polling, no sleeps). */
interface Sample {
  t: number;
  /** index-progress: its state and counts, or null when the page shows none. */
  progress: string | null;
  progressIndexed: number | null;
  progressText: string | null;
  /** The table's count: its words, and the indexed count it read. */
  count: string | null;
  countIndexed: number | null;
  /** Rows of the table in the DOM, and the rows its count says match. */
  rows: number;
  matching: number | null;
  kpiRollouts: string | null;
  healthy: boolean;
  /** The verdicts of rows shown from their records (every rollout of this run has a store). */
  standIns: string[];
}
type Watched = { __samples?: Sample[] };

async function watchRunPage(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as Watched;
    w.__samples = [];
    const num = (v: string | null | undefined) => (v ? Number(v) : null);
    const look = () => {
      const q = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
      const progress = q("index-progress");
      const count = q("rollouts-count");
      w.__samples?.push({
        t: performance.now(),
        progress: progress?.dataset.state ?? null,
        progressIndexed: num(progress?.dataset.indexed),
        progressText: progress?.textContent ?? null,
        count: count?.textContent ?? null,
        countIndexed: num(count?.dataset.indexed),
        rows: document.querySelectorAll('[data-testid="rollout-row"]').length,
        matching: num(count?.dataset.matching),
        kpiRollouts: q("kpi-rollouts")?.textContent ?? null,
        // Either no-alert sentence (nothing masked, or the masked share under its threshold).
        healthy: /No alerts:/.test(document.body?.textContent ?? ""),
        standIns: Array.from(
          document.querySelectorAll<HTMLElement>(
            '[data-testid="severity-pill"][data-source="record"]',
          ),
          (p) => {
            // The pill, then each store count's cell: the store knows them, not the record.
            const heads = Array.from(document.querySelectorAll('[role="columnheader"]'), (h) =>
              h.textContent?.replace(/[▲▼]/g, "").trim(),
            );
            const cells = Array.from(
              p.closest('[role="row"]')?.querySelectorAll('[role="cell"]') ?? [],
              (c) => c.textContent,
            );
            const counts = ["Calls made", "Side calls", "Quarantined", "Failed calls"].map(
              (h) => cells[heads.indexOf(h)] ?? "?",
            );
            return [p.dataset.severity, p.textContent, ...counts].join(" ");
          },
        ),
      });
    };
    new MutationObserver(look).observe(document, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
    });
  });
}

const samplesOf = (page: Page) =>
  page.evaluate(() => (window as Watched).__samples ?? []) as Promise<Sample[]>;

test.describe("a cold 10,000-rollout run on its own server", () => {
  const PORT = 3130;
  let base: string;
  let server: ChildProcess | undefined;
  let cache = "";

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(600_000);
    // Reused when present (fixed seed): writing 10,000 rollouts takes a while.
    const root = path.join(os.tmpdir(), "rollout-lens-e2e-large-run");
    await writeLargeRun(root, ROLLOUTS, true);
    if (!existsSync(path.join(root, WARM_RUN)))
      cpSync(path.join(FIXTURE_RUNS, "opencode-after-fix"), path.join(root, WARM_RUN), {
        recursive: true,
      });
    cache = scratchDir("rollout-lens-e2e-large-run-cache-");
    const started = await startNext(PORT, {
      ROLLOUT_LENS_RUNS: root,
      ROLLOUT_LENS_CACHE: cache,
    });
    [base, server] = [started.url, started.child];
    // What is timed is a cold index, not a cold server process: a fresh `next start` loads a
    // route's code on its first request, so open a small run's page and routes first (its own run
    // in the same root, which also starts the index's worker pool) and let its index finish.
    const small = await fetch(`${base}/runs/${WARM_RUN}`);
    expect(small.status).toBe(200);
    await small.text();
    const indexing = () =>
      fetch(`${base}/api/runs/${WARM_RUN}/health`)
        .then((r) => r.json() as Promise<{ progress: { running: boolean } }>)
        .then((b) => b.progress.running);
    await expect
      .poll(indexing, { message: "the sample run is indexed", timeout: 60_000 })
      .toBe(false);
    await (await fetch(`${base}/api/runs/${WARM_RUN}/rollouts?limit=1`)).text();
    // Nor a cold browser: Chromium's first page starts its processes, which on a two-core machine
    // takes the CPU the server's first answer needs. A user's browser is already running.
    const warm = await browser.newPage();
    await warm.goto(`${base}/runs/${WARM_RUN}`);
    await expect(warm.getByTestId("rollouts-table")).toBeVisible();
    await warm.close();
  });
  test.afterAll(() => stopNext(server, cache));

  test("shows indexing progress within a second, never a zero, a final count or 'healthy' before it is done, and the table never loses rows", async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await watchRunPage(page);
    await page.goto(`${base}/runs/${LARGE}`, { waitUntil: "commit" });
    // The index is done when the health's KPIs replace the skeleton: the count is then final.
    await expect(page.getByTestId("kpi-rollouts")).toContainText("10,000", { timeout: 200_000 });
    await expect(page.getByTestId("index-progress")).toHaveCount(0);
    await expect(page.getByTestId("rollouts-count")).toHaveText("10,000 of 10,000 rollouts");
    const samples = await samplesOf(page);

    // Within 1 s of navigation (the document's clock starts with it) the progress is shown.
    const first = samples.find((s) => s.progress !== null);
    expect(first, "the page shows the index's progress").toBeDefined();
    test
      .info()
      .annotations.push({ type: "progress shown", description: `${first!.t.toFixed(0)} ms` });
    expect(first!.t).toBeLessThan(1_000);
    expect(["counting", "indexing"]).toContain(first!.progress);
    // It was indexing for a while (or this test proves nothing about the refreshes).
    const indexing = samples.filter((s) => s.progress === "indexing");
    expect(indexing.length).toBeGreaterThan(3);
    // Records first: every rollout has a record, so its row stands in from the record
    // while its store is read, and the progress says how many do; the table has rows at once.
    const standing = indexing.filter((s) =>
      /[\d,]+ shown from their records/.test(s.progressText ?? ""),
    );
    expect(standing.length, "the progress names rows shown from their records").toBeGreaterThan(0);
    expect(Math.max(...standing.map((s) => s.rows))).toBeGreaterThan(0);
    // Such a row's pill is "not yet known", never its record's "trained", and its store's counts
    // are "—", not 0: the store decides.
    const standIns = new Set(samples.flatMap((s) => s.standIns));
    expect(standIns.size, "rows standing in from their records were seen").toBeGreaterThan(0);
    expect([...standIns]).toEqual(["pending not yet known — — — —"]);

    // The progress moves within a second: the half-second polls each show the index's new count.
    const moves: number[] = [];
    for (const [i, s] of indexing.entries())
      if (i > 0 && s.progressIndexed !== indexing[i - 1]!.progressIndexed) moves.push(s.t);
    expect(moves.length, "the indexed count moved while indexing").toBeGreaterThan(2);
    const gaps = moves
      .slice(1)
      .map((t, i) => t - moves[i]!)
      .sort((x, y) => x - y);
    expect(gaps[Math.floor(gaps.length / 2)], "median time between progress updates").toBeLessThan(
      1_000,
    );

    for (const s of samples) {
      // Before the index is done, no KPI, no "healthy" and no final-looking table count.
      if (s.kpiRollouts !== null) expect(s.kpiRollouts).toContain("10,000");
      if (s.healthy)
        expect(s.kpiRollouts, "'healthy' only once every rollout is checked").toContain("10,000");
      const final = s.count?.match(/^([\d,]+) of ([\d,]+) rollouts?$/);
      if (final) expect(final[2], `a final count is the run's: ${s.count}`).toBe("10,000");
      expect(s.count ?? "").not.toMatch(/(^|\D)0 of 0\b/);
      // The progress line and the table read one response: they agree on what is indexed.
      if (s.progressIndexed !== null && s.countIndexed !== null)
        expect(s.progressIndexed, `progress vs table at ${s.t.toFixed(0)} ms`).toBe(s.countIndexed);
    }

    // The table never shows fewer rows during a refresh than before it.
    let rows = 0,
      matching = 0;
    for (const s of samples) {
      expect(s.rows, `rows in the DOM at ${s.t.toFixed(0)} ms`).toBeGreaterThanOrEqual(rows);
      rows = s.rows;
      if (s.matching !== null) {
        expect(s.matching, `rows counted at ${s.t.toFixed(0)} ms`).toBeGreaterThanOrEqual(matching);
        matching = s.matching;
      }
    }
    expect(rows).toBeGreaterThan(0);
  });
});

/** Steps of the GRPO runs' training curves, from the generator that wrote their trainer logs. */
const CURVE_STEPS = grpoRewardCurves().off.length;

test("a capture-off run leads with its training curve and says in one line it has no capture", async ({
  page,
}) => {
  const steps = CURVE_STEPS;
  await page.goto("/runs/grpo-capture-off");
  const note = page.getByTestId("capture-off-note");
  await expect(note).toContainText("Token capture is off for this run");
  const curve = page.getByTestId("chart-training-curve");
  await expect(curve).toContainText(`training curve: ${steps} steps`);
  await expect(curve.locator(".recharts-line")).toHaveCount(1);
  // The note leads, the curve follows it, and nothing claims the capture is healthy.
  const [noteBox, curveBox] = [await note.boundingBox(), await curve.boundingBox()];
  expect(noteBox!.y).toBeLessThan(curveBox!.y);
  await expect(page.getByText("no capture check passed")).toHaveCount(0);
  await expect(page.getByTestId("alerts-none")).toHaveCount(0);
  // No empty capture-health panels ("none") and no capture KPIs.
  await expect(page.locator(".chart .empty")).toHaveCount(0);
  await expect(page.getByTestId("chart-verdicts")).toHaveCount(0);
  await expect(page.getByTestId("kpis")).toHaveCount(0);
});

test("a mean reward shown on the home and run pages names its source, apart from the training curve", async ({
  page,
}) => {
  const run = "grpo-capture-on";
  const records = readFileSync(path.join(FIXTURE_RUNS, run, "rollouts.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { reward: number });
  const mean = records.reduce((a, r) => a + r.reward, 0) / records.length;
  const steps = CURVE_STEPS;
  await page.goto("/");
  const row = page.locator(`[data-testid="runs-row"][data-run-id="${run}"]`);
  // The home page shows one mean per run from one source: the training curve where there is one
  // (`train/reward` mean 0.552 over its 100 steps, README's bundled runs), not the records' mean.
  await expect(row.getByTestId("run-reward")).toContainText("0.552");
  await expect(row.getByTestId("run-reward-source")).toHaveText(`training curve: ${steps} steps`);
  await expect(row.getByTestId("run-steps")).toHaveText(`training curve: ${steps} steps`);
  await page.goto(`/runs/${run}`);
  await expect(page.getByTestId("run-sources")).toHaveText(
    `Sources: mean reward ${mean.toFixed(3)} (records: ${records.length} rollouts) · mean reward per step 0.552 (training curve: ${steps} steps: the runs list's and compare's)`,
  );
  // The card beside the runs list's other mean names its source too.
  await expect(page.getByTestId("kpi-reward")).toHaveText(
    `mean reward (records)${mean.toFixed(3)}`,
  );
});
