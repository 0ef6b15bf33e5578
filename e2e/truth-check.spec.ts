// The run page's trainer truth check over the GRPO fixture runs: the two samples the generator
// planted in grpo-capture-on (fixtures/generator/nemo-rl-steps PLANTED) are named and link to their
// rollouts; the capture-off run says there is nothing to compare.
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { PLANTED } from "../fixtures/generator/nemo-rl-planted";

/**
 * The rollout a trained sample came from, read from the fixture's records: train_data_step{N}'s
 * line idx is the idx-th record (in file order) of capture step N − 1, as NeMo-RL numbers steps.
 */
function rolloutOf([n, idx]: readonly [number, number]): string {
  const records = readFileSync("fixtures/runs/grpo-capture-on/rollouts.jsonl", "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map(
      (l) => JSON.parse(l) as { step: number; _ng_task_index: number; _ng_rollout_index: number },
    )
    .filter((r) => r.step === n - 1);
  const r = records[idx]!;
  return `${r._ng_task_index}-${r._ng_rollout_index}`;
}

test("grpo-capture-on: the truth check names the planted samples and links to their rollouts", async ({
  page,
}) => {
  await page.goto("/runs/grpo-capture-on");
  const section = page.getByTestId("truth-check");
  await expect(section.getByTestId("truth-summary")).toContainText(
    "trained on exactly what the capture delivered for 22 of 24 samples",
  );
  await expect(section.getByTestId("truth-step-row")).toHaveCount(3);
  const [maskStep, maskIdx] = PLANTED.maskDiffers;
  const [tokStep, tokIdx] = PLANTED.tokensDiffer;
  const mask = section.locator('[data-testid="truth-sample"][data-class="mask_differs"]');
  const tokens = section.locator('[data-testid="truth-sample"][data-class="tokens_differ"]');
  await expect(mask).toHaveCount(1);
  await expect(tokens).toHaveCount(1);
  await expect(mask).toContainText(`${maskStep} / ${maskIdx}`);
  await expect(tokens).toContainText(`${tokStep} / ${tokIdx}`);
  await expect(tokens.getByTestId("truth-context")).toBeVisible();
  await expect(page.locator('[data-testid="alert"][data-kind="trainer_truth"]')).toBeVisible();
  // Each planted sample links to the very rollout it was trained from.
  const [maskId, tokId] = [rolloutOf(PLANTED.maskDiffers), rolloutOf(PLANTED.tokensDiffer)];
  await expect(mask.getByRole("link", { name: maskId })).toHaveAttribute(
    "href",
    `/runs/grpo-capture-on/rollouts/${maskId}`,
  );
  await expect(tokens.getByRole("link", { name: tokId })).toHaveAttribute(
    "href",
    `/runs/grpo-capture-on/rollouts/${tokId}`,
  );
  await tokens.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/runs/grpo-capture-on/rollouts/${tokId}$`));
});

test("grpo-capture-off: no capture to compare", async ({ page }) => {
  await page.goto("/runs/grpo-capture-off");
  await expect(page.getByTestId("truth-summary")).toContainText(
    "No captured rollout for any of the 24 trained samples (capture is off)",
  );
});
