// Input problems and the home page's triage, in the browser: a run whose run.json misspells a key
// shows a red alert naming the key and the valid one (never "looks healthy"), and the home page
// lists opencode-before-fix (12 of 12 rollouts cut short, its run.json says) above every run with
// no alert, with its alert's words and a link to the rows it names.
import { expect, test } from "@playwright/test";
import { MISSPELLED_RUN } from "./support/paths";

test("a misspelled run.json key is an alert on the run page", async ({ page }) => {
  await page.goto(`/runs/${MISSPELLED_RUN}`);
  const alert = page.locator('[data-testid="alert"][data-kind="manifest"]');
  await expect(alert).toContainText("unknown key builder_profle — did you mean builder_profile?");
  await expect(page.getByTestId("alerts-none")).toHaveCount(0);
  // Told once on the page: the alert, not a second box above it.
  await expect(page.getByText(/unknown key builder_profle/)).toHaveCount(1);
});

test("the home page lists opencode-before-fix above healthy runs with its alert's words", async ({
  page,
}) => {
  await page.goto("/");
  const rows = page.getByTestId("runs-row");
  await expect(rows.first()).toBeVisible();
  const before = page.locator('[data-testid="runs-row"][data-run-id="opencode-before-fix"]');
  const worst = before.getByTestId("run-worst-alert");
  await expect(worst).toContainText("12 of 12 rollouts were cut short");
  await expect(worst.getByTestId("alert-table-link")).toHaveAttribute("href", /cut_short/);
  const misspelled = page.locator(`[data-testid="runs-row"][data-run-id="${MISSPELLED_RUN}"]`);
  await expect(misspelled.getByTestId("run-worst-alert")).toContainText(
    "unknown key builder_profle",
  );
  await expect(misspelled.getByText(/unknown key builder_profle/)).toHaveCount(1);
  // Every row with no alert and no masked rollout comes after opencode-before-fix.
  const ids = await rows.evaluateAll((trs) =>
    trs.map((tr) => ({
      id: tr.getAttribute("data-run-id"),
      healthy:
        tr.querySelector('[data-testid="run-worst-alert"]') === null &&
        (tr.querySelector('[data-testid="run-masked"]')?.textContent ?? "").startsWith("0 ("),
    })),
  );
  const at = ids.findIndex((r) => r.id === "opencode-before-fix");
  const healthy = ids.flatMap((r, i) => (r.healthy ? [i] : []));
  expect(healthy.length).toBeGreaterThan(0);
  for (const i of healthy) expect(i).toBeGreaterThan(at);
});
