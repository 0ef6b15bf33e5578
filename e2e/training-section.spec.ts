// The run page's training section on runs logged without TensorBoard: a NeMo-RL experiment logged
// by W&B offline (fixtures/generator/logger-runs) charts NeMo-RL's rollout metrics and lists its
// config with nested keys dotted; a run of one MLflow database lists its params. Neither says its
// capture is clean, nor names a builder profile: they hold no capture. The log directory holding
// the experiments is no run: its page links them.
import { readdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_RUNS } from "./support/paths";

test("the log directory itself lists its experiments and links each", async ({ page }) => {
  // Fixture truth: the experiment directories the generator wrote under nemo-rl-wandb.
  const dir = path.join(E2E_RUNS, "nemo-rl-wandb");
  const exps = readdirSync(dir)
    .filter((d) => /^exp_\d+$/.test(d))
    .sort();
  expect(exps.length).toBeGreaterThan(1);
  await page.goto("/runs/nemo-rl-wandb");
  const held = page.getByTestId("held-runs");
  await expect(held.locator("h1")).toHaveText(`nemo-rl-wandb holds ${exps.length} runs`);
  await expect(held.getByTestId("held-run")).toHaveText(exps.map((e) => `nemo-rl-wandb/${e}`));
  await expect(page.getByText("no training curve or records")).toHaveCount(0);
  await held.getByTestId("held-run").first().click();
  await expect(page.getByTestId("run-title")).toContainText(`nemo-rl-wandb/${exps[0]}`);
});

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
