// Compare on the GRPO A/B as each logger holds it (fixtures/generator/logger-runs): the W&B
// offline runs of a NeMo-RL log directory and the runs of one MLflow tracking database show, for
// a scalar picked in the page's picker, the very figures the TensorBoard pair shows.
import { expect, test, type Page } from "@playwright/test";

const PAIRS = {
  tensorboard: "a=grpo-capture-on&b=grpo-capture-off",
  wandb: "a=nemo-rl-wandb.exp_002&b=nemo-rl-wandb.exp_001",
  mlflow: "a=grpo-mlflow-capture-on&b=grpo-mlflow-capture-off",
};
const FIGURES = ["mean-a", "mean-b", "mean-diff", "correlation", "mean-test"] as const;

/** The pair's compare page with `scalar` picked in its picker; its figures as the page prints them. */
async function figuresOf(page: Page, pair: string, scalar: string) {
  await page.goto(`/compare?${pair}`);
  const select = page.getByTestId("scalar-picker").getByTestId("scalar-select");
  await expect(select).toHaveValue("train/reward");
  await select.selectOption(scalar);
  await expect(page).toHaveURL(new RegExp(`[?&]scalar=${encodeURIComponent(scalar)}`));
  await expect(page.getByTestId("training-title")).toContainText(
    `${scalar} per step (100 shared steps)`,
  );
  await page.getByTestId("compare-statistics").locator("summary").click();
  const out: Record<string, string | null> = {
    decision: await page.getByTestId("compare-headline").getAttribute("data-decision"),
  };
  for (const id of FIGURES) out[id] = await page.getByTestId(id).innerText();
  return out;
}

test("W&B and MLflow logs of the A/B compare as the TensorBoard logs do", async ({ page }) => {
  const scalar = "train/gen_kl_error";
  const tb = await figuresOf(page, PAIRS.tensorboard, scalar);
  expect(tb["mean-test"]).toMatch(/t = /);
  expect(await figuresOf(page, PAIRS.wandb, scalar)).toEqual(tb);
  expect(await figuresOf(page, PAIRS.mlflow, scalar)).toEqual(tb);
  await page.screenshot({ path: "test-results/compare-mlflow.png", fullPage: true });
});
