// The run page's charts as instruments: axis titles, hover values, charts that fill a
// wide screen, and a click on a bar that leaves exactly its rollouts in the table (the URL records
// it); and an alert's "N more" opens the table filtered to the alert's rollouts (console errors:
// console-clean.spec). Expected rollouts are read from the fixture files, never from the API
// under test.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import {
  byRolloutId,
  readEntries,
  readRecords,
  rolloutId,
  storedRollouts,
} from "./support/fixture-truth";
import { FIXTURE_RUNS } from "./support/paths";
import { drawAll, drawn } from "./support/charts";

const CC = "claude-code-capture-on";
const BEFORE = "opencode-before-fix";

/** The rollout ids the table shows, once every shown row has loaded (all fit in its window). */
async function tableIds(page: Page): Promise<string[]> {
  const ids = await page
    .getByTestId("rollout-row")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-rollout-id") ?? ""));
  return ids.sort(byRolloutId);
}

const count = (page: Page) => page.getByTestId("rollouts-count");

/** Rollout ids whose model-call capture holds a failed exchange (HTTP ≥ 400). */
function withFailedCall(run: string): string[] {
  const dir = path.join(FIXTURE_RUNS, run, "model-calls");
  return readdirSync(dir)
    .filter((n) => n.endsWith(".capture.jsonl"))
    .filter((n) =>
      readFileSync(path.join(dir, n), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .some((l) => (JSON.parse(l) as { status_code: number }).status_code >= 400),
    )
    .map((n) => n.slice(0, -".capture.jsonl".length))
    .sort(byRolloutId);
}

test("clicking the 'unresolved retry' bar leaves exactly those rollouts in the table", async ({
  page,
}) => {
  const records = readRecords(CC);
  const n = records.length;
  // The generator's scenario whose final retry group it leaves unresolved (fixtures/fixtures.test.ts).
  const expected = records
    .filter((r) => r.mask_sample === true && r.scenario === "final_retry_unresolved")
    .map(rolloutId)
    .sort(byRolloutId);
  expect(expected.length).toBeGreaterThan(0);
  await page.goto(`/runs/${CC}`);
  await expect(count(page)).toHaveText(`${n} of ${n} rollouts`);
  const bar = (await drawn(page.getByTestId("chart-mask-reasons"))).locator(
    '[data-testid="chart-bar"][data-key="unresolved_retry"]',
  );
  await expect(bar).toHaveAttribute("aria-label", /^unresolved retry: /);
  await bar.click();
  await expect(page).toHaveURL(/[?&]reason=unresolved_retry(&|#|$)/);
  await expect(count(page)).toHaveText(`${expected.length} of ${n} rollouts`);
  await expect(page.getByTestId("rollout-row")).toHaveCount(expected.length);
  await expect.poll(() => tableIds(page)).toEqual(expected);
  // The table's own reason filter shows what is applied; the bar is marked as the one shown.
  await expect(page.getByTestId("filter-reason")).toHaveValue("unresolved_retry");
  await expect(bar).toHaveAttribute("data-shown", "true");
  // Back undoes the click; the URL alone restores it.
  await page.goBack();
  await expect(count(page)).toHaveText(`${n} of ${n} rollouts`);
  await page.goto(`/runs/${CC}?reason=unresolved_retry`);
  await expect(count(page)).toHaveText(`${expected.length} of ${n} rollouts`);
  await expect.poll(() => tableIds(page)).toEqual(expected);
});

test("a calls-per-rollout bar lists the rollouts with that many calls, by a filter in the URL", async ({
  page,
}) => {
  const ids = storedRollouts(CC);
  const byCalls = new Map<string, string[]>();
  for (const id of ids) {
    const k = String(readEntries(CC, id).length);
    byCalls.set(k, [...(byCalls.get(k) ?? []), id]);
  }
  // The fullest bucket that is not every rollout.
  const [key, expected] = [...byCalls].sort(([, a], [, b]) => b.length - a.length)[0]!;
  expect(expected.length).toBeLessThan(ids.length);
  await page.goto(`/runs/${CC}?verdict=masked`); // a filter the click replaces
  await (
    await drawn(page.getByTestId("chart-calls"))
  )
    .locator(`[data-testid="chart-bar"][data-key="${key}"]`)
    .click();
  await expect(page).toHaveURL(new RegExp(`[?&]calls=${key}(&|#|$)`));
  expect(new URL(page.url()).searchParams.get("verdict")).toBeNull();
  await expect(count(page)).toHaveText(`${expected.length} of ${ids.length} rollouts`);
  await expect.poll(() => tableIds(page)).toEqual([...expected].sort(byRolloutId));
  // The toolbar has no control for it: the note above the charts says it and clears it.
  await expect(page.getByTestId("chart-filter")).toContainText(`calls per rollout ${key}`);
  await page.getByTestId("chart-filter-clear").click();
  await expect(count(page)).toHaveText(`${ids.length} of ${ids.length} rollouts`);
  await expect(page.getByTestId("chart-filter")).toHaveCount(0);
});

test("every chart titles its axes and shows values on hover; the charts fill a wide screen", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(`/runs/${CC}`);
  const charts = page.locator("figure.chart");
  await drawAll(page);
  await expect(
    page.getByTestId("chart-calls").locator(".recharts-bar-rectangle").first(),
  ).toBeVisible();
  const n = await charts.count();
  expect(n).toBeGreaterThan(5);
  for (let i = 0; i < n; i++) {
    await expect(charts.nth(i).getByTestId("chart-x-title")).not.toHaveText("");
    await expect(charts.nth(i).getByTestId("chart-y-title")).not.toHaveText("");
  }
  await expect(page.getByTestId("chart-calls").getByTestId("chart-y-title")).toHaveText("rollouts");
  // The cards reach the grid's right edge (no empty third of the screen).
  const grid = (await page.getByTestId("charts").boundingBox())!;
  const rights = await charts.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right));
  expect(Math.max(...rights)).toBeGreaterThan(grid.x + grid.width - 2);
  // Hover: the bar's bucket and its count.
  const records = readRecords(CC);
  const masked = records.filter((r) => r.mask_sample === true).length;
  await page
    .getByTestId("chart-verdicts")
    .locator('[data-testid="chart-bar"][data-key="masked"]')
    .hover();
  const tip = page.getByTestId("chart-verdicts").getByTestId("chart-tooltip");
  await expect(tip).toContainText("masked");
  await expect(tip).toContainText(`rollouts: ${masked}`);
});

test("a chart below the first screen is drawn as it comes into view, in the place kept for it", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/runs/${CC}`);
  await expect(count(page)).toHaveText(/^(\d+) of \1 rollouts$/);
  const last = page.getByTestId("chart-fallbacks"); // the health charts' last
  await expect(last).toHaveAttribute("data-plot", "waiting");
  await expect(last.locator(".recharts-wrapper")).toHaveCount(0);
  const kept = (await last.boundingBox())!.height;
  await drawn(last);
  await expect(last.locator(".recharts-bar-rectangle").first()).toBeVisible();
  // The card kept the plot's height: drawing it moved nothing below it.
  expect(Math.abs((await last.boundingBox())!.height - kept)).toBeLessThan(2);
});

test("no chart card changes height as it is drawn, legends included", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  // signal-ledger's step charts and its ledger have legends under the plot.
  for (const run of [CC, "signal-ledger"]) {
    await page.goto(`/runs/${run}`);
    await expect(count(page)).toHaveAttribute("data-state", "complete");
    const heights = () =>
      page
        .locator("figure.chart[data-plot]")
        .evaluateAll((cards) =>
          cards.map((c) => `${c.dataset.testid} ${Math.round(c.getBoundingClientRect().height)}`),
        );
    const waiting = page.locator('figure.chart[data-plot="waiting"]');
    expect(await waiting.count(), `${run}: cards below the first screen wait`).toBeGreaterThan(3);
    // The ledger's cards come with its own answer, after the run's: every card is there first.
    if (run === "signal-ledger")
      for (const id of ["chart-signal-ledger", "chart-rerendered-prefixes"])
        await expect(page.getByTestId(id)).toBeAttached();
    const before = await heights();
    await drawAll(page);
    expect(await heights(), run).toEqual(before);
  }
});

test("an alert's 'N more' opens the table filtered to the alert's rollouts", async ({ page }) => {
  const cut = withFailedCall(BEFORE);
  const all = storedRollouts(BEFORE);
  expect(cut.length).toBeGreaterThan(8);
  await page.goto(`/runs/${BEFORE}`);
  const more = page
    .locator('[data-testid="alert"][data-kind="cut_short"]')
    .getByTestId("alert-more");
  await expect(more).toHaveText(`${cut.length - 8} more`);
  await more.click();
  await expect(page).toHaveURL(/[?&]cut_short=1/);
  await expect(count(page)).toHaveText(`${cut.length} of ${all.length} rollouts`);
  await expect.poll(() => tableIds(page)).toEqual(cut);
});

test("a share's axis stays within 0–100% when every step has the same value", async ({ page }) => {
  // grpo-capture-on: no rollout masked and every generated token delivered at each of its steps
  // (its records), so each series is one constant, which recharts' own axis spread to 0–400%.
  const records = readRecords("grpo-capture-on");
  expect(new Set(records.map((r) => (r as { step?: number }).step)).size).toBeGreaterThan(1);
  expect(records.filter((r) => r.mask_sample === true)).toEqual([]);
  const capture = (r: object) =>
    (r as { _ng_token_capture?: { delivered_fraction?: number } })._ng_token_capture;
  const delivered = records.map((r) => capture(r)?.delivered_fraction);
  expect(new Set(delivered)).toEqual(new Set([1]));
  await page.goto("/runs/grpo-capture-on");
  for (const id of ["chart-per-step", "chart-per-step-delivered"]) {
    const ticks = (await drawn(page.getByTestId(id))).locator(
      'text.recharts-cartesian-axis-tick-value[orientation="left"]',
    );
    await expect(ticks).not.toHaveCount(0);
    const values = (await ticks.allTextContents()).map((t) => Number(t.replace("%", "")));
    expect(values.length, `${id}'s ticks`).toBeGreaterThan(1);
    expect(Math.min(...values), `${id}'s lowest tick`).toBe(0);
    expect(Math.max(...values), `${id}'s highest tick`).toBeLessThanOrEqual(100);
  }
});
