// The diff page, reached from a GRPO group: two members of grpo-capture-on's task-0 group show the
// first divergence and texts the generator planted (fixtures/generator/diff-pairs), and the
// changed message opens its token diff. (The 500-call pair's cold diff, two 200k-token builds, is
// timed by bench/diff.bench.ts rather than here.)
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { FIXTURE_RUNS } from "./support/paths";
import { GROUP_PAIR } from "@/fixtures/generator/diff-pairs";

test("two members of a GRPO group: the known first divergence, then a changed message's tokens", async ({
  page,
}) => {
  await page.goto(`/runs/${GROUP_PAIR.run}?group=_ng_task_index`);
  const row = page.locator('[data-testid="group-row"][data-key="0"][data-step="0"]');
  await row.getByTestId("group-diff-a").selectOption(GROUP_PAIR.a);
  await row.getByTestId("group-diff-b").selectOption(GROUP_PAIR.b);
  await row.getByTestId("group-diff-link").click();
  await expect(page).toHaveURL(/\/diff\?/);
  await expect(page.getByTestId("diff-position")).toHaveText(String(GROUP_PAIR.firstDivergence));
  await expect(page.getByTestId("diff-context-a")).toContainText(GROUP_PAIR.before);
  await expect(page.getByTestId("diff-after-a")).toHaveText(new RegExp(`^\\${GROUP_PAIR.afterA}`));
  await expect(page.getByTestId("diff-after-b")).toHaveText(new RegExp(`^${GROUP_PAIR.afterB}`));
  const a = page.getByTestId("diff-side-a");
  const b = page.getByTestId("diff-side-b");
  await expect(a.getByTestId("diff-reward")).toHaveText(String(GROUP_PAIR.rewardA));
  await expect(b.getByTestId("diff-reward")).toHaveText(String(GROUP_PAIR.rewardB));
  await expect(b.getByTestId("diff-advantage")).toContainText("\u22121.000");
  // Its step file logs reward − the task group's mean (rewards 1, 1, 0, 1): 0 − 0.75, which the
  // default rule above (leave-one-out, normalised) is not.
  const logged = b.getByTestId("diff-logged-advantage");
  await expect(logged).toContainText("\u22120.750");
  await expect(logged).toContainText("not this rule's");
  await expect(b.getByTestId("diff-advantage")).toContainText("leave-one-out baseline, normalised");

  const changed = page.locator('[data-testid="diff-row"][data-diverges="1"]');
  await expect(changed).toHaveAttribute("data-kind", "changed");
  await changed.getByTestId("diff-open-tokens").click();
  await expect(page).toHaveURL(/[?&]message=1\b/);
  const added = page.locator('[data-testid="diff-op"][data-kind="added"]');
  await expect(added.first()).toContainText("but I will round differently");
  await expect(page.locator('[data-testid="diff-op"][data-kind="removed"]')).not.toHaveCount(0);
});

test("a rollout alone in its task has no advantage to show, and says why", async ({ page }) => {
  // Fixture truth: claude-code-capture-on's records name each task once (no GRPO group).
  const run = "claude-code-capture-on";
  const records = readFileSync(path.join(FIXTURE_RUNS, run, "rollouts.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { _ng_task_index: number; _ng_rollout_index: number });
  const a = records[0]!;
  expect(records.filter((r) => r._ng_task_index === a._ng_task_index)).toHaveLength(1);
  const id = `${a._ng_task_index}-${a._ng_rollout_index}`;
  await page.goto(`/diff?a=${run}/${id}&b=${run}/${records[1]!._ng_task_index}-0`);
  const side = page.getByTestId("diff-side-a");
  await expect(side.getByTestId("diff-advantage")).toHaveText(
    `— (alone in task ${a._ng_task_index}, step —: no group to compare its reward with)`,
  );
});

test("'diff with' names the other runs holding the same id, maybe another task", async ({
  page,
}) => {
  // Fixture truth: another run's token store holds a file of the same rollout id.
  const run = "claude-code-capture-on";
  const id = "0-0";
  const holds = readdirSync(FIXTURE_RUNS).filter(
    (r) => r !== run && existsSync(path.join(FIXTURE_RUNS, r, "tokens", `${id}.tokens.jsonl`)),
  );
  expect(holds.length).toBeGreaterThan(0);
  await page.goto(`/runs/${run}/rollouts/${id}`);
  const label = page.getByTestId("diff-with-runs-label");
  await expect(label).toHaveText(" · same id in:");
  await expect(label).toHaveAttribute("title", /maybe another task/);
  await expect(page.getByTestId("diff-with-run").first()).toHaveText(holds.sort()[0]!);
});
