// The run page's trainer truth check over the GRPO fixture runs: the two samples the generator
// planted in grpo-capture-on (fixtures/generator/nemo-rl-steps PLANTED) are named and link to their
// rollouts; the capture-off run says there is nothing to compare.
import { readdirSync, readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { PLANTED } from "../fixtures/generator/nemo-rl-planted";

/** The line (1-based) of train_data_step{N}.jsonl holding the sample of that idx. */
function lineOf([n, idx]: readonly [number, number]): number {
  const lines = readFileSync(`fixtures/runs/grpo-capture-on/logs/train_data_step${n}.jsonl`, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  return lines.findIndex((l) => (JSON.parse(l) as { idx: number }).idx === idx) + 1;
}

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
    "trained on exactly the tokens and loss masks the capture delivered for 22 of 24 samples",
  );
  // Three step files: their table shows open (a long one folds under its summary).
  await expect(section.getByTestId("truth-steps-details")).toHaveAttribute("open", "");
  await expect(section.getByTestId("truth-step-row")).toHaveCount(3);
  const [maskStep, maskIdx] = PLANTED.maskDiffers;
  const [tokStep, tokIdx] = PLANTED.tokensDiffer;
  const mask = section.locator('[data-testid="truth-sample"][data-class="mask_differs"]');
  const tokens = section.locator('[data-testid="truth-sample"][data-class="tokens_differ"]');
  await expect(mask).toHaveCount(1);
  await expect(tokens).toHaveCount(1);
  // Named as the alert names it: the step file, the sample's line in it, then its idx.
  await expect(mask.getByTestId("truth-sample-where")).toHaveText(
    `train_data_step${maskStep}.jsonl line ${lineOf(PLANTED.maskDiffers)} · idx ${maskIdx}`,
  );
  await expect(tokens.getByTestId("truth-sample-where")).toHaveText(
    `train_data_step${tokStep}.jsonl line ${lineOf(PLANTED.tokensDiffer)} · idx ${tokIdx}`,
  );
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

test("grpo-capture-on: a rollout the trainer trained on otherwise is never plainly trained in the inspector", async ({
  page,
}) => {
  const planted = [
    { at: PLANTED.tokensDiffer, words: /holds other token ids than this main chain from position/ },
    {
      at: PLANTED.maskDiffers,
      words: /has a loss mask that differs from the capture's at \d+ position/,
    },
  ];
  for (const { at, words } of planted) {
    const [n, idx] = at;
    await page.goto(`/runs/grpo-capture-on/rollouts/${rolloutOf(at)}`);
    const bar = page.getByTestId("verdict-bar");
    await expect(bar).toHaveAttribute("data-severity", "trained_with_warnings");
    await expect(page.getByTestId("verdict-label")).toHaveClass(/sev-warn/);
    const first = bar.getByTestId("verdict-sentence").first();
    await expect(first).toContainText(
      "Trained on by the capture's consumer, but the trainer's sample differs:",
    );
    await expect(first).toContainText(
      `train_data_step${n}.jsonl line ${idx + 1} (the records' step ${n - 1})`,
    );
    await expect(first).toContainText(words);
    await expect(page.getByTestId("trainer-pending")).toHaveCount(0);
  }
  // A sample the trainer took as captured leaves the verdict alone once the check has answered.
  const same = rolloutOf([PLANTED.tokensDiffer[0], PLANTED.tokensDiffer[1] - 1]);
  await page.goto(`/runs/grpo-capture-on/rollouts/${same}`);
  await expect(page.getByTestId("trainer-pending")).toHaveCount(0);
  await expect(page.getByTestId("verdict-bar")).toHaveAttribute("data-severity", "trained");
});

test("grpo-capture-on: until the trainer's step files answer, a trained rollout is not yet known, never green", async ({
  page,
}) => {
  // The check's answer is held back until the page has been read in the meantime.
  const same = rolloutOf([PLANTED.tokensDiffer[0], PLANTED.tokensDiffer[1] - 1]);
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route("**/trainer-mismatch?*", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/runs/grpo-capture-on/rollouts/${same}`);
  const bar = page.getByTestId("verdict-bar");
  await expect(bar).toHaveAttribute("data-severity", "pending");
  await expect(bar.getByTestId("verdict-label")).toHaveText("not yet known");
  await expect(bar.getByTestId("verdict-sentence").first()).toContainText(
    "whether the trainer trained this sample as captured is not yet known",
  );
  release();
  await expect(bar).toHaveAttribute("data-severity", "trained");
  await expect(bar.getByTestId("verdict-label")).toHaveText("trained");
});

test("grpo-capture-on: the table, its reason filter and the home page count them as trained with warnings", async ({
  page,
}) => {
  const ids = [rolloutOf(PLANTED.tokensDiffer), rolloutOf(PLANTED.maskDiffers)].sort();
  await page.goto("/runs/grpo-capture-on");
  for (const id of ids) {
    const row = page.locator(`[data-testid="rollout-row"][data-rollout-id="${id}"]`);
    await expect(row).toContainText("trained, warnings");
    await expect(row).toContainText("The trainer's sample differs.");
  }
  // The truth check's alert lists exactly them in the table, through the reason filter.
  const alert = page.locator('[data-testid="alert"][data-kind="trainer_truth"]');
  await alert.getByRole("link", { name: /list all 2 in the table/ }).click();
  await expect(page).toHaveURL(/reason=trainer_differs/);
  await expect(page.getByTestId("filter-reason")).toHaveValue("trainer_differs");
  await expect(page.getByTestId("rollout-row")).toHaveCount(ids.length);
  const shown = await page
    .getByTestId("rollout-row")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-rollout-id")));
  expect(shown.sort()).toEqual(ids);
  await page.goto("/");
  const home = page.locator('[data-testid="runs-row"][data-run-id="grpo-capture-on"]');
  await expect(home.getByTestId("run-severity-trained_with_warnings")).toHaveAttribute(
    "data-count",
    String(ids.length),
  );
});

/**
 * NeMo-RL's token_mult_prob_error over a run's step files, computed here from the files: the mean
 * of exp(|generation − prev|) over every token whose token × sample loss mask is not 0, position 0
 * dropped (NeMo-RL's ClippedPGLossFn; lib/trainer is not used).
 */
function runMultProbError(run: string): number {
  const dir = `fixtures/runs/${run}/logs`;
  let [sum, n] = [0, 0];
  for (const f of readdirSync(dir).filter((x) => /^train_data_step\d+\.jsonl$/.test(x)))
    for (const line of readFileSync(`${dir}/${f}`, "utf8").split("\n").filter(Boolean)) {
      const s = JSON.parse(line) as Record<string, number[][] | number[]>;
      const [gen, prev, mask] = ["generation_logprobs", "prev_logprobs", "token_loss_mask"].map(
        (k) => (s[k] as number[][])[0]!,
      );
      const sample = (s.sample_loss_mask as number[])[0]!;
      const len = (s.input_lengths as number[])[0]!;
      for (let t = 1; t < len; t++)
        if (mask![t]! * sample !== 0)
          [sum, n] = [sum + Math.exp(Math.abs(gen![t]! - prev![t]!)), n + 1];
    }
  return sum / n;
}

test("grpo-hotspots: same tokens and masks, but log probs that disagree, is not a green all-clear", async ({
  page,
}) => {
  const mult = runMultProbError("grpo-hotspots");
  expect(mult).toBeGreaterThan(1.05); // the fixture plants three tokens off
  await page.goto("/runs/grpo-hotspots");
  const summary = page.getByTestId("truth-summary");
  await expect(summary).toContainText(
    `its log probs disagree with the inference engine's (token_mult_prob_error ${mult.toFixed(3)}, above 1.05`,
  );
  await expect(summary).not.toHaveClass(/ok-text/);
  const alert = page.locator('[data-testid="alert"][data-kind="trainer_mismatch"]');
  await expect(alert).toContainText(
    `\`token_mult_prob_error\` is ${mult.toFixed(3)}`.replace(/`/g, ""),
  );
  await expect(page.getByTestId("alerts-none")).toHaveCount(0);
});

test("signal-ledger: the sample the trainer left out of the loss is masked, not 'trained'", async ({
  page,
}) => {
  // Fixture truth: the step file's sample whose sample_loss_mask is 0, and the rollout its idx
  // names among the step's records (rollouts.jsonl order, as NeMo-RL's idx counts them).
  const sample = readFileSync("fixtures/runs/signal-ledger/logs/train_data_step1.jsonl", "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { idx: number; sample_loss_mask: number[] })
    .find((s) => s.sample_loss_mask[0] === 0)!;
  const step0 = readFileSync("fixtures/runs/signal-ledger/rollouts.jsonl", "utf8")
    .split("\n")
    .filter(Boolean)
    .map(
      (l) => JSON.parse(l) as { step: number; _ng_task_index: number; _ng_rollout_index: number },
    )
    .filter((r) => r.step === 0);
  const r = step0[sample.idx]!;
  await page.goto(`/runs/signal-ledger/rollouts/${r._ng_task_index}-${r._ng_rollout_index}`);
  const bar = page.getByTestId("verdict-bar");
  await expect(bar).toHaveAttribute("data-severity", "masked");
  await expect(bar.getByTestId("verdict-sentence").first()).toHaveText(
    "Masked by the trainer, not the capture's consumer: excluded from training.",
  );
  await expect(bar.getByTestId("verdict-sentence").nth(1)).toContainText(
    "The trainer left its sample out of the loss: train_data_step1.jsonl",
  );
  // Its row in the table says so too, not "trained".
  await page.goto(`/runs/signal-ledger?severity=masked`);
  const id = `${r._ng_task_index}-${r._ng_rollout_index}`;
  const row = page.getByTestId("rollout-row").filter({ hasText: id });
  await expect(row.getByRole("link", { name: id, exact: true })).toBeVisible();
  await expect(row).toContainText("masked");
  // Its delivered share is struck out: delivered, yet none of it trains.
  await expect(row.getByTestId("delivered-masked")).toHaveAttribute(
    "title",
    "masked: none of it is trained",
  );
});

test("grpo-capture-on: the diff page's verdict counts the trainer's differing sample too", async ({
  page,
}) => {
  const differs = rolloutOf(PLANTED.tokensDiffer);
  const same = rolloutOf([PLANTED.tokensDiffer[0], PLANTED.tokensDiffer[1] - 1]);
  await page.goto(`/diff?a=grpo-capture-on/${differs}&b=grpo-capture-on/${same}`);
  const a = page.getByTestId("diff-side-a");
  await expect(a.getByTestId("diff-verdict")).toHaveClass(/sev-warn/);
  await expect(a).toContainText("the trainer's sample differs");
  await expect(page.getByTestId("diff-side-b").getByTestId("diff-verdict")).toHaveClass(
    /sev-trained/,
  );
});
