import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { TOKEN_VIEW } from "./support/token-view";

// WCAG AA contrast (4.5:1) on the inspector with the token view showing generated and re-fed
// tokens, checked by axe-core's color-contrast rule (issue 12 item 4).
// fixme until issue 12 item 4 lands: today 109 failures (generated tokens ~2.2:1, row gutters 3.05:1).
test.fixme("the inspector's text meets AA contrast with the token view visible", async ({
  page,
}) => {
  await page.goto("/runs/claude-code-capture-on/rollouts/0-0");
  await expect(page.locator(TOKEN_VIEW.painted).first()).toBeVisible();
  await expect(page.locator(TOKEN_VIEW.pending)).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page }).withRules(["color-contrast"]).analyze();
  const found = violations.flatMap((v) =>
    v.nodes.map((n) => `${n.target.join(" ")}: ${n.any[0]?.message ?? v.help}`),
  );
  expect(found, `${found.length} contrast failures`).toEqual([]);
});
