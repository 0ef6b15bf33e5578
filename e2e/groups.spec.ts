// GRPO groups and record-field columns on grpo-capture-on. Expected groups, rewards, advantages
// and equal-reward flags are worked here from the fixture's own rollouts.jsonl (never from the
// server): a group is one task's rollouts in one step; an advantage is NeMo-RL's default GRPO one
// (reward − mean of the other rewards, ÷ their sample std + 1e-6 where that std is above 0),
// computed directly from its definition.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { FIXTURE_RUNS } from "./support/paths";

const RUN = "grpo-capture-on";
const NO_SIGNAL = "no training signal (all rewards equal)";

interface Rec {
  _ng_task_index: number;
  _ng_rollout_index: number;
  step: number;
  reward: number;
  agent_ref: { name: string };
}
interface Expected {
  step: number;
  task: number;
  ids: string[];
  rewards: number[];
  equal: boolean;
}

const records: Rec[] = readFileSync(path.join(FIXTURE_RUNS, RUN, "rollouts.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Rec);

/** The file's groups in step, then task order; members in rollout-index order. */
function expectedGroups(): Expected[] {
  const by = new Map<string, Rec[]>();
  for (const r of records) {
    const k = `${r.step}:${r._ng_task_index}`;
    by.set(k, [...(by.get(k) ?? []), r]);
  }
  return [...by.values()]
    .map((rs) => rs.sort((a, b) => a._ng_rollout_index - b._ng_rollout_index))
    .map((rs) => ({
      step: rs[0]!.step,
      task: rs[0]!._ng_task_index,
      ids: rs.map((r) => `${r._ng_task_index}-${r._ng_rollout_index}`),
      rewards: rs.map((r) => r.reward),
      equal: rs.every((r) => r.reward === rs[0]!.reward),
    }))
    .sort((a, b) => a.step - b.step || a.task - b.task);
}

/** Leave-one-out advantage of member i, normalised by the others' sample std (NeMo-RL defaults). */
function advantage(rewards: number[], i: number): number {
  if (rewards.every((r) => r === rewards[0])) return 0;
  const others = rewards.filter((_, j) => j !== i);
  const base = others.reduce((a, v) => a + v, 0) / others.length;
  const ss = others.reduce((a, v) => a + (v - base) ** 2, 0);
  const std = others.length > 1 ? Math.sqrt(ss / (others.length - 1)) : 0;
  const adv = rewards[i]! - base;
  return std > 0 ? adv / (std + 1e-6) : adv;
}
/** A signed difference as the pages write it: a minus sign (U+2212), unsigned when it rounds to 0. */
const signed = (v: number) =>
  Number(v.toFixed(3)) === 0
    ? Math.abs(v).toFixed(3)
    : `${v > 0 ? "+" : "\u2212"}${Math.abs(v).toFixed(3)}`;

test("grouping grpo-capture-on by task shows each group's rewards and flags the equal-reward groups", async ({
  page,
}) => {
  const groups = expectedGroups();
  expect(groups.some((g) => g.equal)).toBe(true); // the fixture plants equal-reward groups
  expect(groups.some((g) => !g.equal)).toBe(true);
  await page.goto(`/runs/${RUN}`);
  await page.getByTestId("group-by-task").click();
  await expect(page).toHaveURL(/[?&]group=_ng_task_index/);
  const rows = page.getByTestId("group-row");
  await expect(rows).toHaveCount(groups.length);
  await expect(page.getByTestId("groups-count")).toHaveAttribute("data-total", `${groups.length}`);
  for (const [i, g] of groups.entries()) {
    const row = rows.nth(i);
    await expect(row).toHaveAttribute("data-step", String(g.step));
    await expect(row).toHaveAttribute("data-key", String(g.task));
    const rewards = row.getByTestId("group-reward");
    await expect(rewards).toHaveCount(g.ids.length);
    for (const [j, id] of g.ids.entries()) {
      await expect(rewards.nth(j)).toHaveAttribute("data-rollout-id", id);
      await expect(rewards.nth(j)).toHaveAttribute("data-reward", String(g.rewards[j]));
      const adv = row.getByTestId("group-advantage").nth(j);
      await expect(adv).toHaveText(signed(advantage(g.rewards, j)));
      await expect(adv).toHaveAttribute("href", new RegExp(`/runs/${RUN}/rollouts/${id}(\\?|$)`));
    }
    const flag = row.getByTestId("group-no-signal");
    if (g.equal) {
      await expect(row).toHaveAttribute("data-no-signal", "1");
      await expect(flag).toHaveText(NO_SIGNAL);
      await expect(flag).toHaveClass(/\bsev-warn\b/);
    } else {
      await expect(row).toHaveAttribute("data-no-signal", "0");
      await expect(flag).toHaveCount(0);
    }
  }

  // Only the equal-reward groups, then back to the rollouts table.
  await page.getByTestId("group-no-signal-only").check();
  await expect(rows).toHaveCount(groups.filter((g) => g.equal).length);
  await page.getByTestId("group-off").click();
  await expect(page).not.toHaveURL(/[?&]group=/);
  await expect(page.getByTestId("rollouts-table")).toBeVisible();
});

test("the run page counts the groups without training signal per step", async ({ page }) => {
  const groups = expectedGroups();
  const steps = [...new Set(groups.map((g) => g.step))];
  await page.goto(`/runs/${RUN}`);
  const perStep = page.getByTestId("group-signal-step");
  // Fetched by the page once hydrated: on two loaded cores (a CI run), 4 s after the load event.
  await expect(perStep).toHaveCount(steps.length, { timeout: 15_000 });
  for (const [i, step] of steps.entries()) {
    const row = perStep.nth(i);
    const n = groups.filter((g) => g.step === step && g.equal).length;
    await expect(row).toHaveAttribute("data-step", String(step));
    await expect(row.getByTestId("group-signal-count")).toHaveAttribute("data-count", String(n));
  }
});

test("a record-field column shows each rollout's value, and the choice is in the URL", async ({
  page,
}) => {
  await page.goto(`/runs/${RUN}`);
  const picker = page.getByTestId("record-field-picker");
  await picker.locator("summary").click();
  await picker.locator('[data-testid="record-field-choice"][data-path="agent_ref.name"]').check();
  await picker.locator('[data-testid="record-field-choice"][data-path="_ng_task_index"]').check();
  await expect(page).toHaveURL(
    /[?&]fields=agent_ref\.name%2C_ng_task_index|fields=agent_ref\.name,_ng_task_index/,
  );
  // The first rows of the table (rollout id order) are certainly rendered.
  for (const r of records.slice(0, 6)) {
    const row = page.locator(
      `[data-testid="rollout-row"][data-rollout-id="${r._ng_task_index}-${r._ng_rollout_index}"]`,
    );
    await expect(row.locator('[data-col="field:_ng_task_index"]')).toHaveText(
      String(r._ng_task_index),
    );
    await expect(row.locator('[data-col="field:agent_ref.name"]')).toHaveText(r.agent_ref.name);
  }

  // A field the records do not carry is refused, naming the ones they do.
  await page.goto(`/runs/${RUN}?fields=bogus`);
  const bad = page.getByTestId("bad-record-fields");
  await expect(bad).toContainText('"bogus"');
  await expect(bad).toContainText("_ng_task_index");
});

/** Each trained rollout's logged advantage, read from the step files (its first loss token's). */
function loggedFromStepFiles(): Map<string, number> {
  const out = new Map<string, number>();
  for (const n of [1, 2, 3]) {
    const file = path.join(FIXTURE_RUNS, RUN, "logs", `train_data_step${n}.jsonl`);
    const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
    // The generator writes step N's samples in the order of step N − 1's records.
    const recs = records.filter((r) => r.step === n - 1);
    for (const [i, l] of lines.entries()) {
      const s = JSON.parse(l) as { token_loss_mask: number[][]; advantages: number[][] };
      const first = s.token_loss_mask[0]!.indexOf(1);
      const r = recs[i]!;
      out.set(`${r._ng_task_index}-${r._ng_rollout_index}`, s.advantages[0]![first]!);
    }
  }
  return out;
}

test("the groups set the trainer's logged advantages beside their own, and switch to the rule that gives them", async ({
  page,
}) => {
  const logged = loggedFromStepFiles();
  const groups = expectedGroups();
  const members = groups.flatMap((g) => g.ids.map((id, j) => ({ id, g, j })));
  const off = (m: (typeof members)[number]) =>
    Math.abs(advantage(m.g.rewards, m.j) - logged.get(m.id)!) >
    1e-3 * Math.max(1, Math.abs(logged.get(m.id)!));
  const differ = members.filter(off).length;
  expect(differ).toBeGreaterThan(0); // the fixture's trainer used group means, not normalised
  await page.goto(`/runs/${RUN}?group=_ng_task_index`);
  const line = page.getByTestId("groups-logged");
  await expect(line).toHaveAttribute("data-differ", String(differ));
  await expect(line).toContainText(
    `for ${differ} of the ${members.length} rollouts on this page that have both`,
  );
  await expect(line).toContainText("group-mean baseline, not normalised");
  for (const m of members) {
    const cell = page.locator(`[data-testid="group-logged-advantage"][data-rollout-id="${m.id}"]`);
    await expect(cell).toHaveText(signed(logged.get(m.id)!));
    await expect(cell).toHaveAttribute("data-differs", off(m) ? "1" : "0");
  }

  await page.getByTestId("groups-use-fit").click();
  await expect(page).toHaveURL(/[?&]group_baseline=group_mean/);
  await expect(page).toHaveURL(/[?&]group_normalize=0/);
  await expect(line).toHaveAttribute("data-differ", "0");
  await expect(page.getByTestId("group-baseline")).toHaveValue("group_mean");
  await expect(page.getByTestId("group-normalize")).not.toBeChecked();
  for (const m of members) {
    const mean = m.g.rewards.reduce((a, v) => a + v, 0) / m.g.rewards.length;
    const adv = page.locator(`[data-testid="group-advantage"][data-rollout-id="${m.id}"]`);
    await expect(adv).toHaveText(signed(m.g.equal ? 0 : m.g.rewards[m.j]! - mean));
  }

  // The diff page the group's link opens computes its advantages with the same rule.
  const first = members.find((m) => !m.g.equal)!;
  const row = page.locator(
    `[data-testid="group-row"][data-key="${first.g.task}"][data-step="${first.g.step}"]`,
  );
  await row.getByTestId("group-diff-link").click();
  await expect(page).toHaveURL(/\/diff\?.*baseline=group_mean.*normalize=0/);
  for (const side of ["a", "b"]) {
    const s = page.getByTestId(`diff-side-${side}`);
    await expect(s.getByTestId("diff-advantage")).toContainText(
      "group-mean baseline, not normalised",
    );
    await expect(s.getByTestId("diff-logged-advantage")).not.toContainText("not this rule's");
  }
});
