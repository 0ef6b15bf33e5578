// The run page's mismatch hotspots over grpo-hotspots, whose trainer disagrees with inference on
// three known tokens (fixtures/generator/nemo-rl-planted HOT_TOKENS): they lead the token table,
// decoded, and the worst occurrence's link opens the inspector at that token with mismatch colouring
// on. Turns are the calls of the main chain. moe-routes' step files put the mismatch on one expert's
// tokens (fixtures/generator/moe-steps HOT_ROUTE): it leads the MoE table, and its link opens the
// routed experts panel too. A run without step files shows no panel. DOCS_SCREENSHOTS=1 writes
// docs/hotspots.png and docs/hotspots-moe.png.
import { expect, test } from "@playwright/test";
import { HOT_ROUTE, moeKey } from "../fixtures/generator/moe-planted";
import { HOT_TOKENS } from "../fixtures/generator/nemo-rl-planted";
import { TOKEN_VIEW } from "./support/token-view";

test("the planted tokens lead the hotspots and link to the token in the inspector", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto("/runs/grpo-hotspots");
  const section = page.getByTestId("hotspots");
  const rows = section.getByTestId("hotspots-tokens").getByTestId("hotspots-row");
  await expect(rows).toHaveCount(10);
  for (const [i, t] of HOT_TOKENS.entries()) {
    await expect(rows.nth(i)).toHaveAttribute("data-key", String(t.id));
    await expect(rows.nth(i)).toContainText(JSON.stringify(t.text));
  }
  const turns = section.getByTestId("hotspots-turns").getByTestId("hotspots-row");
  await expect(turns).toHaveCount(2);
  await expect(turns.first()).toContainText(/^call \d+/);
  await expect(section.getByTestId("hotspots-moe-none")).toBeVisible();
  if (process.env.DOCS_SCREENSHOTS === "1") {
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: "docs/hotspots.png" });
  }
  await section.getByTestId("hotspots-by-tail").click();
  await expect(page).toHaveURL(/[?&]hotspots=tail/);
  await section.getByTestId("hotspots-by-mean").click();
  const link = rows.nth(0).getByTestId("hotspots-link");
  const href = (await link.getAttribute("href")) ?? "";
  const pos = Number(/[?&]pos=(\d+)/.exec(href)?.[1]);
  await link.click();
  await expect(page).toHaveURL(/\/runs\/grpo-hotspots\/rollouts\/\d+-\d+\?.*mismatch=1/);
  const token = page.locator(TOKEN_VIEW.at(pos));
  await expect(token).toBeVisible({ timeout: 15_000 });
  await expect(token).toContainText(HOT_TOKENS[0]!.text.trim());
  await expect(token).toHaveClass(/\bsel\b/);
  await expect(token).toHaveAttribute("data-mismatch", /^7\.389/);
});

test("the expert whose tokens the trainer gets wrong leads the MoE table", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto("/runs/moe-routes");
  const section = page.getByTestId("hotspots");
  const rows = section.getByTestId("hotspots-moe-rows").getByTestId("hotspots-row");
  await expect(rows.first()).toHaveAttribute(
    "data-key",
    String(moeKey(HOT_ROUTE.layer, HOT_ROUTE.expert)),
  );
  await expect(rows.first()).toContainText(`layer ${HOT_ROUTE.layer} · expert ${HOT_ROUTE.expert}`);
  await expect(section.getByTestId("hotspots-moe-fallback")).toBeVisible();
  if (process.env.DOCS_SCREENSHOTS === "1") {
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: "docs/hotspots-moe.png" });
  }
  const link = rows.first().getByTestId("hotspots-link");
  await expect(link).toHaveAttribute("href", /[?&]mismatch=1&experts=1$/);
  await link.click();
  await expect(page).toHaveURL(/\/runs\/moe-routes\/rollouts\/\d+-\d+\?.*experts=1/);
});

test("a run without step files has no hotspots panel", async ({ page }) => {
  await page.goto("/runs/gym-main-example");
  await expect(page.getByTestId("rollout-row").first()).toBeVisible();
  await expect(page.getByTestId("hotspots")).toHaveCount(0);
});
