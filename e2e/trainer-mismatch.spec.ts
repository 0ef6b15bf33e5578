// Train/inference mismatch in the UI over the GRPO fixtures: the run page's truth check reports each
// step file's token_mult_prob_error equal to the TensorBoard scalar; a rollout the truth check
// joined colours its tokens by exp(|gen − prev|) on demand (AA contrast kept); a rollout of a run
// without step logs says why there is no toggle; the compare page shows both runs' distributions.
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { PLANTED } from "../fixtures/generator/nemo-rl-planted";
import { TOKEN_VIEW } from "./support/token-view";

test("the truth check compares each step's token_mult_prob_error with TensorBoard's", async ({
  page,
}) => {
  await page.goto("/runs/grpo-capture-on");
  const section = page.getByTestId("truth-check");
  await expect(section.getByTestId("truth-logged")).toContainText("3 of 3 step files equal");
  await expect(
    section.locator('[data-testid="truth-step-logged"][data-check="equal"]'),
  ).toHaveCount(3);
});

test("a joined rollout's tokens take their mismatch colour on demand, with a legend", async ({
  page,
}) => {
  await page.goto("/runs/grpo-capture-on");
  const [step, idx] = PLANTED.maskDiffers;
  const sample = page
    .locator('[data-testid="truth-sample"][data-class="mask_differs"]')
    .filter({ hasText: `train_data_step${step}.jsonl` })
    .filter({ hasText: `idx ${idx}` });
  await sample.getByRole("link").click();
  await expect(page).toHaveURL(/\/runs\/grpo-capture-on\/rollouts\/\d+-\d+/);
  await expect(page.locator(TOKEN_VIEW.painted).first()).toBeVisible({ timeout: 60_000 });
  const toggle = page.getByTestId("mismatch-toggle");
  await expect(toggle).toBeVisible();
  await expect(page.getByTestId("token-legend-mismatch")).toHaveCount(0);
  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(page).toHaveURL(/[?&]mismatch=1/);
  await expect(page.getByTestId("token-legend-mismatch")).toBeVisible();
  // The trained tokens come after the prompt: bring them into the (virtualised) panel. The errors
  // load after the toggle (one request for the whole chain).
  await page.getByTestId("token-scroll").evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(page.locator(`${TOKEN_VIEW.painted}[data-mismatch]`).first()).toBeVisible({
    timeout: 20_000,
  });
  const { violations } = await new AxeBuilder({ page }).withRules(["color-contrast"]).analyze();
  expect(violations.flatMap((v) => v.nodes.map((n) => n.target.join(" ")))).toEqual([]);
  await toggle.click();
  await expect(page.getByTestId("token-legend-shades")).toBeVisible();
  await expect(page.locator(`${TOKEN_VIEW.painted}[data-mismatch]`)).toHaveCount(0);
});

test("a rollout of a run without step logs has no toggle and no truth-check note", async ({
  page,
}) => {
  await page.goto("/runs/claude-code-capture-on/rollouts/0-0");
  await expect(page.getByTestId("token-legend")).toBeVisible();
  await expect(page.getByTestId("token-counts")).toContainText("generated (mask 1)");
  await expect(page.getByTestId("mismatch-unavailable")).toHaveCount(0);
  await expect(page.getByTestId("mismatch-toggle")).toHaveCount(0);
});

test("compare shows both runs' mismatch distributions side by side", async ({ page }) => {
  await page.goto("/compare?a=grpo-capture-on&b=grpo-capture-off");
  const section = page.getByTestId("compare-mismatch");
  await expect(section).toBeVisible({ timeout: 60_000 });
  await expect(section.getByTestId("compare-mismatch-samples")).toHaveText(["24 (3)", "24 (3)"]);
  await expect(section.getByTestId("compare-mismatch-bin")).toHaveCount(10);
});
