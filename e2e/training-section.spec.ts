// The run page's training section on runs logged without TensorBoard: a NeMo-RL experiment logged
// by W&B offline (fixtures/generator/logger-runs) charts NeMo-RL's rollout metrics and lists its
// config with nested keys dotted; a run of one MLflow database lists its params. Neither says its
// capture is clean, nor names a builder profile: they hold no capture.
import { expect, test } from "@playwright/test";

test("a W&B experiment: rollout metrics charted, config listed, no claim about capture", async ({
  page,
}) => {
  await page.goto("/runs/nemo-rl-wandb.exp_001");
  await expect(page.getByTestId("run-title")).toContainText("nemo-rl-wandb/exp_001");
  await expect(page.getByTestId("capture-off-note")).toContainText("No token capture in this run");
  await expect(page.getByText("no capture check passed")).toHaveCount(0);
  await expect(page.getByTestId("run-profile-reason")).toHaveCount(0); // nothing for it to judge
  const section = page.getByTestId("training-section");
  await expect(section.getByTestId("training-loggers")).toContainText(
    "wandb (wandb): read, 1 run file",
  );
  for (const id of [
    "truncation",
    "natural-termination",
    "turns",
    "generated-tokens",
    "total-tokens",
  ])
    await expect(section.getByTestId(`chart-training-${id}`)).toBeVisible();
  const config = section.getByTestId("training-facts-config");
  await config.locator("summary").click();
  await expect(config.locator("tr", { hasText: "grpo.seed" })).toContainText("32");
  await page.screenshot({ path: "test-results/training-wandb.png", fullPage: true });
});

test("an MLflow database's run: its params as run facts", async ({ page }) => {
  await page.goto("/runs/grpo-mlflow-capture-on");
  const section = page.getByTestId("training-section");
  await expect(section.getByTestId("training-loggers")).toContainText(
    "a tracking database of 3 runs",
  );
  const params = section.getByTestId("training-facts-params");
  await params.locator("summary").click();
  await expect(params.locator("tr", { hasText: "env.nemo_gym.token_capture" })).toContainText(
    "true",
  );
});
