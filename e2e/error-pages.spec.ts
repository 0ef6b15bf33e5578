// Error pages name what is missing or wrong, with a way back: an unknown run, an unknown rollout of
// a known run, a bad table query (the allowed values, not a table stuck on "loading…").
import { readdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { FIXTURE_RUNS } from "./support/paths";

const RUN = "claude-code-capture-on";
/** The table's sort keys, from the route's schema (lib/index/query SORT_KEYS). */
const SOME_SORT_KEYS = ["rollout_id", "reward", "n_calls", "bytes"];

test("an unknown run is a 404 naming the run, with a breadcrumb home", async ({ page }) => {
  const res = await page.goto("/runs/no-such-run");
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toHaveAttribute("data-missing", "run");
  await expect(page.getByTestId("not-found-reason")).toHaveText(
    "There is no run no-such-run in the runs root.",
  );
  await expect(page.locator(".crumbs").getByRole("link", { name: "runs" })).toHaveAttribute(
    "href",
    "/",
  );
});

test("a rollout of an unknown run says the run is missing", async ({ page }) => {
  const res = await page.goto("/runs/no-such-run/rollouts/0-0");
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toHaveAttribute("data-missing", "run");
  await expect(page.getByTestId("not-found-reason")).toContainText("no run no-such-run");
});

test("an unknown rollout of a known run is named as such, linking back to its run", async ({
  page,
}) => {
  const stored = readdirSync(path.join(FIXTURE_RUNS, RUN, "tokens"));
  expect(stored.some((n) => n.startsWith("no-such-rollout."))).toBe(false);
  const res = await page.goto(`/runs/${RUN}/rollouts/no-such-rollout`);
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toHaveAttribute("data-missing", "rollout");
  await expect(page.getByTestId("not-found-reason")).toHaveText(
    `There is no rollout no-such-rollout in run ${RUN}.`,
  );
  await expect(page.locator(".crumbs").getByRole("link", { name: RUN })).toHaveAttribute(
    "href",
    `/runs/${RUN}`,
  );
});

test("a bad sort on the run page lists the allowed values, and dropping it shows the table", async ({
  page,
}) => {
  const refused: string[] = [];
  page.on("response", (r) => {
    if (r.url().includes("/rollouts?") && r.status() === 400) refused.push(r.url());
  });
  await page.goto(`/runs/${RUN}?sort=bogus&verdict=masked`);
  const panel = page.getByTestId("rollouts-bad-query");
  await expect(panel).toBeVisible();
  const param = panel.locator('[data-testid="bad-query-param"][data-key="sort"]');
  await expect(param).toContainText('sort="bogus"');
  for (const key of SOME_SORT_KEYS)
    await expect(param.locator("code", { hasText: key })).toHaveCount(1);
  await expect(page.getByTestId("rollouts-count")).toHaveText("bad query");
  await expect(page.getByTestId("rollouts-table")).toBeHidden();
  await page.getByTestId("bad-query-drop").click();
  await expect(page).not.toHaveURL(/sort=bogus/);
  await expect(page).toHaveURL(/verdict=masked/);
  await expect(panel).toHaveCount(0);
  await expect(page.getByTestId("rollouts-count")).toHaveText(/^\d+ of \d+ rollouts?$/);
  expect(refused).toEqual([]);
});
