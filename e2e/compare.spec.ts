import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_RUNS } from "./support/paths";

const GRPO = ["grpo-capture-on", "grpo-capture-off", "grpo-capture-off-seed2"];

// Independent of lib/compare and lib/trainer: the runs' train/reward per step as
// lib/compare/reference.py decodes their TensorBoard event files (they keep no metrics.jsonl),
// and a two-pass Pearson on it.
function rewards(run: string): number[] {
  const out = execFileSync("python3", ["lib/compare/reference.py", "series", run], {
    encoding: "utf8",
  });
  return JSON.parse(out) as number[];
}
function pearson(a: number[], b: number[]): number {
  const m = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const [ma, mb] = [m(a), m(b)];
  let sab = 0,
    saa = 0,
    sbb = 0;
  a.forEach(
    (x, i) => (
      (sab += (x - ma) * (b[i]! - mb)),
      (saa += (x - ma) ** 2),
      (sbb += (b[i]! - mb) ** 2)
    ),
  );
  return sab / Math.sqrt(saa * sbb);
}

test("capture on vs off: correlation, floor and verdict match an independent computation", async ({
  page,
}) => {
  const on = rewards("grpo-capture-on"),
    off = rewards("grpo-capture-off"),
    off2 = rewards("grpo-capture-off-seed2");
  await page.goto("/compare?a=grpo-capture-on&b=grpo-capture-off");
  await expect(page.getByTestId("correlation")).toHaveText(pearson(on, off).toFixed(3));
  await expect(page.getByTestId("floor")).toHaveText(
    `${pearson(off2, off).toFixed(3)} (grpo-capture-off-seed2 vs grpo-capture-off, 100 steps)`,
  );
  await expect(page.getByTestId("compare-headline")).toContainText("No difference we can detect");
  // 95% bootstrap intervals from lib/compare/reference.py (numpy).
  await expect(page.getByTestId("mean-a")).toHaveText("0.552 [0.543, 0.562]");
  await expect(page.getByTestId("mean-diff")).toHaveText("+0.006 [−0.007, +0.019]");
  await expect(page.getByTestId("baseline")).toContainText("marked as a seed repeat in run.json");
  await expect(page.getByTestId("chart-reward").locator(".recharts-line")).toHaveCount(4);
  // Capture off holds no rollout files (read from the fixture): its counts are unknown, not 0.
  const offFiles = readdirSync(path.join(E2E_RUNS, "grpo-capture-off"));
  expect(offFiles.filter((f) => f === "rollouts.jsonl" || f === "tokens")).toEqual([]);
  const offCell = (row: string) => page.getByTestId(`capture-${row}`).locator("td").nth(1);
  await expect(offCell("rollouts")).toHaveText("— (none found)");
  await expect(offCell("invalid")).toHaveText("—");
  await page.screenshot({ path: "test-results/compare-grpo.png", fullPage: true });
});

test("capture on vs off from their TensorBoard files: calibrated verdict, scalar picker, mismatch", async ({
  page,
}) => {
  for (const run of GRPO)
    expect(existsSync(path.join("fixtures/runs", run, "metrics.jsonl"))).toBe(false);
  await page.goto("/compare?a=grpo-capture-on&b=grpo-capture-off");
  // The calibrated verdict: the headline in plain words with its decision as an attribute, and,
  // folded under it, the paragraph saying how it was tested.
  const head = page.getByTestId("compare-headline");
  await expect(head).toHaveAttribute("data-decision", "within_noise");
  await expect(head).toContainText("No difference we can detect");
  // In the text's own colour, not the all-clear green: the test can miss a real difference.
  const colour = (sel: string) => page.locator(sel).evaluate((e) => getComputedStyle(e).color);
  expect(await colour('[data-testid="compare-headline"]')).toBe(await colour("body"));
  await page.getByTestId("compare-statistics").locator("summary").click();
  const verdict = page.getByTestId("compare-verdict");
  await expect(verdict).toContainText(
    "Within run-to-run noise (5% level in all: the mean's t test at 4%",
  );
  const method = page.getByTestId("compare-method");
  await expect(method).toContainText("Paired by step");
  await expect(method).toContainText("moving-block bootstrap");
  await expect(method).toContainText("Steiger's z");
  await expect(page.getByTestId("mean-test")).toContainText("t = 1.75, 1.7 df, p = 0.243");
  // The scalar picker: train/reward chosen, the event files' other train/* scalars offered.
  const select = page.getByTestId("scalar-picker").getByTestId("scalar-select");
  await expect(select).toHaveValue("train/reward");
  await expect(select.locator("option")).toHaveText([
    "train/gen_kl_error",
    "train/reward",
    "train/token_mult_prob_error",
  ]);
  await expect(page.getByTestId("training-title")).toContainText(
    "train/reward per step (100 shared steps)",
  );
  await expect(page.getByTestId("chart-reward")).toHaveAttribute("data-scalar", "train/reward");
  // Both runs' mismatch distributions, side by side (fetched after the page renders).
  const mismatch = page.getByTestId("compare-mismatch");
  await expect(mismatch).toBeVisible({ timeout: 60_000 });
  const heads = mismatch.getByTestId("compare-mismatch-quantiles").locator("thead th");
  await expect(heads.nth(1)).toContainText("grpo-capture-on");
  await expect(heads.nth(2)).toContainText("grpo-capture-off");
  await expect(mismatch.getByTestId("compare-mismatch-samples")).toHaveText(["24 (3)", "24 (3)"]);
  await expect(mismatch.getByTestId("compare-mismatch-bin").first()).toBeVisible();
  // The finding in words beside the reward's headline: capture off's planted re-tokenization drift
  // (fixtures/generator/nemo-rl-steps) puts its run value far above NeMo-RL's 1.05.
  await expect(mismatch.getByTestId("compare-mismatch-lead")).toContainText(
    /grpo-capture-off \d+\.\d{4} \(above 1\.05, \d+ of 24 samples at 2 or more\)/,
  );
  await expect(page.getByTestId("compare-headline")).toContainText(
    "No difference we can detect in train/reward",
  );
  // Picking another scalar recomputes the comparison on it, within the page: a new document would
  // not be hydrated yet when the next choice comes, and that choice would change nothing.
  const marked = () => (window as unknown as { __samePage?: boolean }).__samePage === true;
  await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
  await select.selectOption("train/gen_kl_error");
  await expect(page).toHaveURL(/[?&]scalar=train%2Fgen_kl_error/);
  expect(await page.evaluate(marked), "the choice loaded a new document").toBe(true);
  await expect(page.getByTestId("training-title")).toContainText("train/gen_kl_error per step");
  await expect(page.getByTestId("chart-reward")).toHaveAttribute(
    "data-scalar",
    "train/gen_kl_error",
  );
  // token_mult_prob_error: capture off's planted re-tokenization drift (fixtures/generate.ts) with
  // spikes; the headline says it differs, in medians, and links to the mismatch section.
  await select.selectOption("train/token_mult_prob_error");
  await expect(page).toHaveURL(/[?&]scalar=train%2Ftoken_mult_prob_error/);
  const spiky = page.getByTestId("compare-headline");
  await expect(spiky).toHaveAttribute("data-decision", "differs");
  await expect(spiky).toContainText(
    "Differs in train/token_mult_prob_error: grpo-capture-on median",
  );
  await expect(spiky).not.toContainText("noise");
  await expect(page.getByTestId("compare-mismatch-link")).toHaveAttribute(
    "href",
    "#compare-mismatch",
  );
  await expect(page.locator("#compare-mismatch")).toBeVisible({ timeout: 60_000 });
});

test("opencode after vs before the fix: reward jump, calls made and the 422s", async ({ page }) => {
  await page.goto("/compare?a=opencode-after-fix&b=opencode-before-fix");
  await expect(page.getByTestId("eval-means")).toHaveText(
    "0.917 (opencode-after-fix) vs 0.000 (opencode-before-fix)",
  );
  await expect(page.getByTestId("eval-diff")).toHaveText("+0.917 [+0.750, +1.000]");
  await expect(page.getByTestId("sign-test")).toHaveText("11 up, 0 down, 1 tied; p = 0.000977");
  // Calls made = captured + failed + lost: after the fix two captured calls; before it one captured call
  // and the 422 (fixtures: 200×12 and 422×12 over 12 rollouts).
  await expect(page.getByTestId("mean-calls")).toHaveText(
    "2.00 (opencode-after-fix) vs 2.00 (opencode-before-fix)",
  );
  await expect(
    page
      .getByTestId("chart-calls")
      .locator('text.recharts-cartesian-axis-tick-value[orientation="bottom"]'),
  ).toHaveText(["2"]);
  await expect(page.getByTestId("capture-status")).toContainText("200×12 422×12");
  await expect(page.getByTestId("capture-cut-short")).toHaveText(/0\s*12$/);
  await page.getByTestId("changed-row").first().getByRole("link", { name: "0-0" }).first().click();
  await expect(page).toHaveURL(/\/runs\/opencode-after-fix\/rollouts\/0-0$/);
});

test("swap sides and deep links", async ({ page }) => {
  await page.goto("/compare?a=grpo-capture-on&b=grpo-capture-off&baseline=grpo-capture-off-seed2");
  await expect(page.getByTestId("baseline")).toContainText("(chosen)");
  await page.getByTestId("swap").click();
  await expect(page).toHaveURL(
    /a=grpo-capture-off&b=grpo-capture-on&baseline=grpo-capture-off-seed2/,
  );
  await expect(page.getByTestId("mean-a")).toHaveText(/^0\.546 /);
  await expect(page.getByTestId("mean-diff")).toHaveText(/^−0\.006 /);
  await expect(page.getByTestId("correlation")).toHaveText("0.943");
  await page.getByTestId("pick-b").selectOption("grpo-capture-off-seed2");
  await page.getByTestId("pick-baseline").selectOption("");
  await page.getByTestId("pick-submit").click();
  await expect(page).toHaveURL(/a=grpo-capture-off&b=grpo-capture-off-seed2/);
  await expect(page.getByTestId("correlation")).toHaveText("0.952");
});

test("choose two runs on the home page", async ({ page, request }) => {
  await page.goto("/");
  const hint = page.getByTestId("pick-hint");
  await expect(hint).toHaveText("Pick two runs to compare them.");
  await page.locator('[data-run-id="opencode-after-fix"]').getByTestId("pick-run").check();
  await expect(hint).toHaveText("One run picked: pick another to compare with it.");
  await page.locator('[data-run-id="opencode-before-fix"]').getByTestId("pick-run").check();
  await expect(hint).toHaveText("Two runs picked; a third replaces the first.");
  await page.getByTestId("compare-link").click();
  await expect(page).toHaveURL(/\/compare\?a=opencode-after-fix&b=opencode-before-fix$/);
  await expect(page.getByTestId("evaluation")).toBeVisible();
  const res = await request.get("/api/compare?a=grpo-capture-on");
  expect(res.status()).toBe(400);
  expect((await res.json()).error).toBe("compare needs two runs: ?a=<run>&b=<run>");
  expect((await page.goto("/compare?a=grpo-capture-on&b=nope"))?.status()).toBe(404);
});

// The fixture seed groups' rewards straight from their metrics.jsonl, not through the app.
function seedRewards(run: string): number[] {
  return readFileSync(path.join("fixtures/runs", run, "metrics.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => (JSON.parse(l) as { reward: number }).reward);
}
const overall = (runs: string[]) => {
  const all = runs.flatMap(seedRewards);
  return all.reduce((s, x) => s + x, 0) / all.length;
};

test("two seed groups: mean lines with bands, seed counts in the verdict, a picker for several runs", async ({
  page,
}) => {
  const on = ["grpo-seeds-on-1", "grpo-seeds-on-2", "grpo-seeds-on-3"];
  const off = ["grpo-seeds-off-1", "grpo-seeds-off-2"];
  // One run of each group names the whole group (run.json seed_group).
  await page.goto("/compare?a=grpo-seeds-on-1&b=grpo-seeds-off-1");
  await expect(page.getByTestId("compare-side-a")).toHaveText("grpo-seeds-on (3 seeds)");
  await expect(page.getByTestId("compare-side-b")).toHaveText("grpo-seeds-off (2 seeds)");
  const head = page.getByTestId("compare-headline");
  // Levels: the mean over the steps of each side's per-step mean, i.e. over all its runs' values.
  await expect(head).toContainText(
    `grpo-seeds-on (3 seeds) ${overall(on).toFixed(3)} vs grpo-seeds-off (2 seeds) ${overall(off).toFixed(3)}`,
  );
  const chart = page.getByTestId("chart-reward");
  await expect(chart).toHaveAttribute("data-bands", "2");
  await expect(chart.locator(".recharts-area")).toHaveCount(2);
  await expect(chart.locator(".recharts-area-area")).toHaveCount(2);
  await expect(page.getByTestId("chart-band-legend")).toContainText(
    "mean ± 1 sd across the side's seeds",
  );
  await expect(chart.locator(".recharts-legend-item-text")).toContainText([
    "grpo-seeds-on ± 1 sd across 3 seeds",
  ]);
  await page.getByTestId("compare-statistics").locator("summary").click();
  const verdict = page.getByTestId("compare-verdict");
  await expect(verdict).toContainText("a is 3 seeds (seed_group grpo-seeds-on:");
  await expect(verdict).toContainText("b is 2 seeds (seed_group grpo-seeds-off:");
  await expect(verdict).toContainText("tested against the spread between each side's seeds");
  await expect(verdict).toContainText("Welch t = ");
  for (const id of on) await expect(page.getByTestId("seed-side-a")).toContainText(id);
  await expect(page.getByTestId("baseline")).toContainText("two seeds of one side");
  await page.screenshot({ path: "/tmp/seed-groups.png", fullPage: true });
  // The picker: two runs of a, submitted, become a=r1,r2 in the address.
  await page.getByTestId("pick-a").selectOption(["grpo-seeds-on-1", "grpo-seeds-on-3"]);
  await page.getByTestId("pick-submit").click();
  await expect(page).toHaveURL(/\/compare\?a=grpo-seeds-on-1,grpo-seeds-on-3&b=grpo-seeds-off-1$/);
  await expect(page.getByTestId("compare-side-a")).toHaveText(
    "{grpo-seeds-on-1, grpo-seeds-on-3} (2 seeds)",
  );
  await expect(page.getByTestId("pick-a").locator("option:checked")).toHaveText([
    "grpo-seeds-on-1 (seed group grpo-seeds-on)",
    "grpo-seeds-on-3 (seed group grpo-seeds-on)",
  ]);
});

test("runs of different agents, one without a model-call store: no task pairing, no guessed 0s", async ({
  page,
}) => {
  // Fixture truth: gym-main-v1 keeps no model-call store, claude-code-capture-on does.
  const has = (run: string) => readdirSync(path.join(E2E_RUNS, run)).includes("model-calls");
  expect([has("claude-code-capture-on"), has("gym-main-v1")]).toEqual([true, false]);
  await page.goto("/compare?a=claude-code-capture-on&b=gym-main-v1");
  await expect(page.getByTestId("compare-notes")).toContainText(
    "the runs' records name different agents",
  );
  await expect(page.getByTestId("evaluation")).toHaveCount(0);
  const cell = (row: string) => page.getByTestId(`capture-${row}`).locator("td").nth(1);
  await expect(cell("failed")).toHaveText("— (no model-call statuses recorded)");
  await expect(cell("cut-short")).toHaveText("— (no model-call statuses recorded)");
});

test("capture health carries each run page's alerts, the trainer's truth check among them", async ({
  page,
}) => {
  // grpo-capture-on's step files plant one sample with other tokens and one with another loss
  // mask (fixtures/generator/nemo-rl-planted) among every line of its step files.
  const logs = path.join(E2E_RUNS, "grpo-capture-on", "logs");
  const samples = readdirSync(logs)
    .filter((f) => /^train_data_step\d+\.jsonl$/.test(f))
    .reduce(
      (n, f) => n + readFileSync(path.join(logs, f), "utf8").split("\n").filter(Boolean).length,
      0,
    );
  await page.goto("/compare?a=grpo-capture-on&b=grpo-capture-off");
  const row = page.getByTestId("capture-alerts");
  await expect(row.locator("td").first()).toContainText(
    `The trainer did not train on what the capture delivered for 2 of ${samples} samples`,
    { timeout: 60_000 },
  );
  await expect(row.locator("td").nth(1)).toContainText("log probs and the inference engine's");
  // In the run page's colours and with its code spans, not raw backticks.
  await expect(row.locator('li[data-severity="error"]').first()).toHaveClass(/bad-text/);
  await expect(row.locator("code").first()).toHaveText("train_data_step{N}.jsonl");
  await expect(row).not.toContainText("`");
});
