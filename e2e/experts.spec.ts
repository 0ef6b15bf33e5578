// Routed experts in the UI (docs/experts.md) over the moe-routes sample run: the rollouts table's
// "Expert fallback" column, the run page's alert, and in the token view on demand a selected
// token's experts per layer and the visible tokens' layer × expert heatmap (DOCS_SCREENSHOTS=1
// writes the docs' screenshot, docs/experts.png). The 500-call large rollout, which has no routes, says so and stays usable.
import { expect, test } from "@playwright/test";
import { GENERATED_ROLLOUT, LARGE_RUN } from "./support/paths";
import { TOKEN_VIEW } from "./support/token-view";

/** fixtures/generator/moe-routes' run (its module reaches server-only code, never loaded here). */
const MOE_RUN = "moe-routes";

test("the run page lists each rollout's expert fallback, charts it per step and alerts", async ({
  page,
}) => {
  await page.goto(`/runs/${MOE_RUN}`);
  await expect(page.getByRole("columnheader", { name: "Expert fallback" })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByText(/of the routed experts on main chains fell back/)).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByTestId("chart-per-step-expert-fallback")).toBeVisible();
  await page.getByTestId("chart-per-step-expert-fallback").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/experts-run-page.png" });
});

test("a rollout whose replay fell back past 1% is not plainly trained, in the table and the inspector", async ({
  page,
}) => {
  // 0-0's first call has every 7th route row planted as fallback (all −1): past 1% of its chain.
  await page.goto(`/runs/${MOE_RUN}?reason=expert_fallback`);
  const row = page.locator('[data-testid="rollout-row"][data-rollout-id="0-0"]');
  await expect(row).toContainText("trained, warnings", { timeout: 60_000 });
  await page.goto(`/runs/${MOE_RUN}/rollouts/0-0`);
  await expect(page.getByTestId("verdict-sentences")).toContainText(
    /expert routes fell back: \d+(\.\d)?% of the main chain's routed experts/,
    { timeout: 60_000 },
  );
});

test("a selected token's experts and the visible tokens' expert load, on demand", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(`/runs/${MOE_RUN}/rollouts/0-0?pos=140`);
  await expect(page.locator(TOKEN_VIEW.painted).first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("expert-heatmap")).toHaveCount(0);
  await page.getByTestId("experts-toggle").click();
  await expect(page).toHaveURL(/[?&]experts=1/);
  await expect(page.getByTestId("expert-heatmap")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("experts-selected")).toContainText(/pos 140 experts: L0 \d+ \d+/);
  // The first call's every 7th row from row 1 is planted as fallback (all −1): 113 is one.
  await page.locator(TOKEN_VIEW.at(113)).click();
  await expect(page.getByTestId("experts-selected")).toContainText("pos 113: no route");
  await page.locator(TOKEN_VIEW.at(101)).click();
  await expect(page.getByTestId("experts-selected")).toContainText(/pos 101 experts: L0 \d+ \d+/);
  await expect(page.getByTestId("expert-heatmap-caption")).toContainText("layers 0–3");
  // The docs' screenshot only when asked (as hotspots.spec does): a test run leaves docs/ alone.
  const shot =
    process.env.DOCS_SCREENSHOTS === "1" ? "docs/experts.png" : "test-results/experts.png";
  await page.screenshot({ path: shot });
});

test("the 500-call rollout without routes says so", async ({ page }) => {
  await page.goto(`/runs/${LARGE_RUN}/rollouts/${GENERATED_ROLLOUT}?experts=1`);
  await expect(page.getByTestId("experts-none")).toBeVisible({ timeout: 120_000 });
  await expect(page.locator(TOKEN_VIEW.painted).first()).toBeVisible();
});
