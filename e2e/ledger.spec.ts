// The signal ledger on the run page (docs/ledger.md), on the signal-ledger sample run: the totals
// in words, a stage's link lists its rollouts in the table (equal-reward groups: the group view
// of the groups without signal), and the re-rendered prefixes' link opens the inspector at the
// first differing token. Expected groups are the generator's plan.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { drawAll } from "./support/charts";
import { FIXTURE_RUNS } from "./support/paths";
import { equalRewardTasks } from "../fixtures/generator/signal-ledger-plan";

test("the signal ledger says where the tokens went and links each stage", async ({ page }) => {
  await page.goto("/runs/signal-ledger");
  const ledger = page.getByTestId("signal-ledger");
  await expect(ledger.getByTestId("ledger-sentence")).toContainText(
    "of the generated tokens you paid for reached the gradient",
    { timeout: 60_000 },
  );
  // The totals are the whole run's, its steps without a step file included: the fixture's truth.
  const run = path.join(FIXTURE_RUNS, "signal-ledger");
  const steps = new Set(
    readFileSync(path.join(run, "rollouts.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { step: number }).step),
  );
  const files = readdirSync(path.join(run, "logs")).filter((f) => /^train_data_step\d+/.test(f));
  const without = steps.size - files.length;
  expect(without).toBeGreaterThan(0);
  await expect(ledger.getByTestId("ledger-stages-scope")).toContainText(
    `${without} step${without === 1 ? "" : "s"} without a step file included`,
  );
  await drawAll(page);
  await expect(ledger.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await ledger.locator('[data-key="side_calls"]').getByTestId("ledger-stage-link").click();
  await expect(page).toHaveURL(/ledger=side_calls/);
  await expect(page.getByTestId("rollouts-count")).toContainText("of 24");
  await expect(page.getByTestId("chart-filter")).toContainText("side calls");
});

test("a run whose records name no step says so instead of drawing empty axes", async ({ page }) => {
  const records = readFileSync(path.join(FIXTURE_RUNS, "gym-main-v1", "rollouts.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(records.length).toBeGreaterThan(0);
  expect(records.filter((r) => "step" in r)).toEqual([]); // the fixture's truth
  await page.goto("/runs/gym-main-v1");
  const ledger = page.getByTestId("signal-ledger");
  await expect(ledger.getByTestId("ledger-no-steps")).toContainText("Not charted by step");
  await expect(ledger.getByTestId("rerender-note")).toBeVisible();
  await expect(ledger.locator("figure.chart")).toHaveCount(0);
});

test("the equal-reward stage opens the groups that carry no advantage", async ({ page }) => {
  await page.goto("/runs/signal-ledger");
  const stage = page.getByTestId("signal-ledger").locator('[data-key="equal_reward"]');
  await stage.getByTestId("ledger-stage-link").click({ timeout: 60_000 });
  await expect(page).toHaveURL(/group=_ng_task_index&group_signal=none/);
  const rows = page.getByTestId("group-row");
  const tasks = equalRewardTasks();
  expect(tasks.length).toBeGreaterThan(0);
  await expect(rows).toHaveCount(tasks.length, { timeout: 30_000 });
  expect((await rows.evaluateAll((els) => els.map((e) => e.dataset.key))).sort()).toEqual(
    tasks.map(String).sort(),
  );
  await expect(rows.and(page.locator('[data-no-signal="1"]'))).toHaveCount(tasks.length);
});

test("the re-rendered prefixes link to the first differing token and raise an alert", async ({
  page,
}) => {
  await page.goto("/runs/signal-ledger");
  await expect(page.locator('[data-kind="rerendered_prefixes"]')).toContainText(
    "re-rendered an earlier turn",
    { timeout: 60_000 },
  );
  const first = page.getByTestId("rerender-first");
  await expect(first).toHaveAttribute(
    "href",
    /\/rollouts\/1-1\?tab=tokens&chain=main&call=\w+&pos=45/,
  );
  await first.click();
  await expect(page).toHaveURL(/pos=45/);
});

test("a trainer stage's link says it lists the delivered rollouts, and the table says which it lists", async ({
  page,
}) => {
  await page.goto("/runs/signal-ledger");
  const stage = page.getByTestId("signal-ledger").locator('[data-key="with_advantage"]');
  const link = stage.getByTestId("ledger-stage-link");
  await expect(link).toHaveText("delivered rollouts", { timeout: 60_000 });
  await link.click();
  await expect(page).toHaveURL(/ledger=delivered/);
  // Beside the table's count, not only far above it by the charts.
  const note = page.getByTestId("rollouts-section").getByTestId("chart-filter");
  await expect(note).toContainText("delivered on their main chain");
  await expect(note).toContainText("not something the table filters by");
});
