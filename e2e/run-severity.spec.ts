// One severity model on the run pages: amber pills for every cut-short opencode
// rollout, none after the fix, no masked rollout drawn as trained, and the home page's counts per
// class. Expected values come from the fixture files on disk, never from the API under test.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";

const RUNS = path.join(process.cwd(), "fixtures", "runs");

type Row = Record<string, unknown>;

function jsonl(file: string): Row[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Row);
}

/** rollouts.jsonl by rollout id (`<task>-<rollout>`). */
function records(run: string): Map<string, Row> {
  return new Map(
    jsonl(path.join(RUNS, run, "rollouts.jsonl")).map((r) => [
      `${r._ng_task_index}-${r._ng_rollout_index}`,
      r,
    ]),
  );
}

/** Rollout ids whose last model call (by start time) failed: the agent stopped after it. */
function cutShortOnDisk(run: string): { ids: string[]; all: string[] } {
  const dir = path.join(RUNS, run, "model-calls");
  const all: string[] = [];
  const ids: string[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".capture.jsonl"))) {
    const id = f.replace(/\.capture\.jsonl$/, "");
    const xs = jsonl(path.join(dir, f)).sort((a, b) => Number(a.started_at) - Number(b.started_at));
    const status = Number(xs[xs.length - 1]?.status_code ?? 0);
    all.push(id);
    if (status < 200 || status >= 300) ids.push(id);
  }
  return { ids, all };
}

const maskedOnDisk = (run: string) =>
  [...records(run)].filter(([, r]) => r.mask_sample === true).map(([id]) => id);

/** The pill of one rollout in the run's table, found by a search so virtualisation cannot hide it. */
async function pillOf(page: Page, run: string, id: string) {
  await page.goto(`/runs/${run}?q=${encodeURIComponent(id)}`);
  const row = page.locator(`[data-testid="rollout-row"][data-rollout-id="${id}"]`);
  await expect(row).toBeVisible();
  return { row, pill: row.getByTestId("severity-pill") };
}

test("opencode-before-fix: an amber pill for every cut-short rollout", async ({ page }) => {
  const { ids, all } = cutShortOnDisk("opencode-before-fix");
  expect(ids).toHaveLength(12);
  expect(ids.sort()).toEqual(all.sort());
  await page.goto("/runs/opencode-before-fix");
  await expect(page.getByTestId("rollouts-count")).toHaveText("12 of 12 rollouts");
  const rows = page.getByTestId("rollout-row");
  await expect(rows).toHaveCount(12);
  for (const id of ids) {
    const pill = page.locator(`[data-rollout-id="${id}"]`).getByTestId("severity-pill");
    await expect(pill).toHaveAttribute("data-severity", "trained_with_warnings");
    await expect(pill).toHaveClass(/\bsev-warn\b/);
    await expect(pill).toHaveAttribute("title", /cut short/);
  }
  // The same class in the alert and the verdict chart.
  await expect(page.locator('[data-testid="alert"][data-kind="cut_short"]')).toHaveAttribute(
    "data-verdict",
    "trained_with_warnings",
  );
  await expect(page.getByTestId("kpi-warnings")).toContainText("12");
});

test("opencode-after-fix: no rollout is cut short and none shows a warning", async ({ page }) => {
  const { ids, all } = cutShortOnDisk("opencode-after-fix");
  expect(ids).toEqual([]);
  await page.goto("/runs/opencode-after-fix");
  await expect(page.getByTestId("rollout-row")).toHaveCount(all.length);
  await expect(page.locator(".sev-warn")).toHaveCount(0);
  await expect(page.locator('[data-testid="severity-pill"][data-severity="trained"]')).toHaveCount(
    all.length,
  );
  await expect(page.locator('[data-testid="alert"][data-kind="cut_short"]')).toHaveCount(0);
});

for (const run of ["claude-code-capture-on", "gym-main-v1"]) {
  test(`${run}: no masked rollout says "trained" anywhere in its row`, async ({ page }) => {
    const masked = maskedOnDisk(run);
    expect(masked.length).toBeGreaterThan(0);
    for (const id of masked) {
      const { row, pill } = await pillOf(page, run, id);
      await expect(pill).toHaveAttribute("data-severity", "masked");
      await expect(pill).toHaveClass(/\bsev-masked\b/);
      await expect(pill).toHaveText("masked");
      await expect(row).not.toContainText(/trained/i);
    }
  });
}

test("the home page counts rollouts per class as the fixture files do", async ({ page }) => {
  const before = cutShortOnDisk("opencode-before-fix");
  const after = cutShortOnDisk("opencode-after-fix");
  const gym = records("gym-main-v1");
  const gymMasked = maskedOnDisk("gym-main-v1").length;
  // gym-main-v1 has no model-call store (nothing cut short) and delivers every branch it builds.
  const gymWarned = [...gym.values()].filter((r) => {
    const m = (r._ng_token_capture ?? {}) as Row;
    return (
      r.mask_sample !== true && typeof m.delivered_fraction === "number" && m.delivered_fraction < 1
    );
  }).length;
  const expected: Record<string, [trained: number, warnings: number, masked: number]> = {
    "opencode-before-fix": [before.all.length - before.ids.length, before.ids.length, 0],
    "opencode-after-fix": [after.all.length - after.ids.length, after.ids.length, 0],
    "gym-main-v1": [gym.size - gymMasked - gymWarned, gymWarned, gymMasked],
  };
  const claudeMasked = maskedOnDisk("claude-code-capture-on").length;
  const count = (run: string, cls: string) =>
    page
      .locator(`[data-testid="runs-row"][data-run-id="${run}"]`)
      .getByTestId(`run-severity-${cls}`);
  // The home page is rendered on the server once; a cold index may still be summarising (pending).
  await expect(async () => {
    await page.goto("/");
    for (const [run, [trained, warnings, masked]] of Object.entries(expected)) {
      await expect(count(run, "pending")).toHaveCount(0, { timeout: 100 });
      await expect(count(run, "trained")).toHaveAttribute("data-count", String(trained), {
        timeout: 100,
      });
      await expect(count(run, "trained_with_warnings")).toHaveAttribute(
        "data-count",
        String(warnings),
        { timeout: 100 },
      );
      await expect(count(run, "masked")).toHaveAttribute("data-count", String(masked), {
        timeout: 100,
      });
    }
    await expect(count("claude-code-capture-on", "masked")).toHaveAttribute(
      "data-count",
      String(claudeMasked),
      { timeout: 100 },
    );
  }).toPass({ timeout: 20_000 });
  await expect(count("gym-main-v1", "masked")).toHaveClass(/\bsev-masked\b/);
  await expect(count("opencode-before-fix", "trained_with_warnings")).toHaveClass(/\bsev-warn\b/);
});
