import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { FIXTURE_RUNS } from "./support/paths";
import { scratchDir, startNext, stopNext } from "./support/server";

test("home lists the bundled runs and a run shows each rollout's verdict", async ({ page }) => {
  await page.goto("/");
  const row = page.getByTestId("runs-row").filter({ hasText: "gym-main-example" });
  await expect(row).toBeVisible();
  await expect(row).toContainText("Gym main store example");
  await expect(row.getByTestId("run-rollouts")).toHaveText("5");
  // 1-0 (a lost call), 2-0 (an intent, no token records) and 3-0 (a retired tombstone, which Gym
  // main's consumer masks: fixtures/gym-v1-cases/retired-tombstone).
  await expect(row.getByTestId("run-masked")).toHaveText("3 (60.0%)");
  // The run's name links to its page (its worst alert links to the rows it names).
  await row.getByRole("link", { name: "Gym main store example" }).click();
  await expect(page).toHaveURL(/\/runs\/gym-main-example$/);
  const rows = page.getByTestId("rollout-row");
  await expect(rows).toHaveCount(5);
  await expect(page.locator('[data-rollout-id="1-0"]')).toContainText("masked");
  // Reasons in sentences; the code stays in the cell's title (and in exports).
  const reasons = page.locator('[data-rollout-id="1-0"]').getByTestId("reasons-cell");
  await expect(reasons).toContainText("Capture incomplete: ");
  await expect(reasons).toHaveAttribute("title", /codes: .*capture_incomplete/);
  await expect(page.locator('[data-rollout-id="2-0"]')).toContainText(
    "capture contains no token records",
  );
  await expect(page.locator('[data-rollout-id="3-0"]')).toContainText("masked");
  await expect(page.locator('[data-rollout-id="0-0"]')).toContainText("trained");
  await page.screenshot({ path: "test-results/run-page.png", fullPage: true });
});

test("a count of zero is shown but muted, never in its class's alarm colour", async ({
  page,
  request,
}) => {
  // Which runs have a zero comes from the runs route; what a zero looks like is this test's own
  // expectation: the number, in the page's --muted grey (#9aa3b2), no severity class.
  type Counts = Record<"trained" | "trained_with_warnings" | "masked" | "pending", number>;
  const body = (await (await request.get("/api/runs")).json()) as {
    runs: { id: string; rollouts: number; severity: Counts }[];
  };
  const zeros = body.runs.flatMap((r) =>
    r.rollouts > 0 && r.severity.pending === 0
      ? (["trained", "trained_with_warnings", "masked"] as const)
          .filter((s) => r.severity[s] === 0)
          .map((s) => ({ id: r.id, s }))
      : [],
  );
  expect(zeros.length, "a bundled run with a zero count").toBeGreaterThan(0);
  await page.goto("/");
  for (const { id, s } of zeros) {
    const pill = page
      .locator(`[data-testid="runs-row"][data-run-id="${id}"]`)
      .getByTestId(`run-severity-${s}`);
    await expect(pill).toHaveAttribute("data-count", "0");
    await expect(pill).toHaveText(/ 0$/);
    await expect(pill).toHaveClass(/\bcount-zero\b/);
    await expect(pill).not.toHaveClass(/\bsev-/);
    await expect(pill).toHaveCSS("color", "rgb(154, 163, 178)");
  }
});

test("an unknown run is a 404 page, not a crash", async ({ page }) => {
  const res = await page.goto("/runs/no-such-run");
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toBeVisible();
});

test("GET /api/runs describes every run", async ({ request }) => {
  // Expected from the run's files: its manifest and the rollout ids its token store names.
  const dir = path.join(FIXTURE_RUNS, "gym-main-example");
  const manifest = JSON.parse(readFileSync(path.join(dir, "run.json"), "utf8")) as {
    capture: string;
    builder_profile: string;
  };
  const ids = new Set(readdirSync(path.join(dir, "tokens")).map((n) => n.split(".tokens")[0]));
  expect(ids.size).toBe(5);
  const body = await (await request.get("/api/runs")).json();
  const run = body.runs.find((r: { id: string }) => r.id === "gym-main-example");
  expect(run).toMatchObject({
    capture: manifest.capture,
    builder_profile: manifest.builder_profile,
    manifest_error: null,
    store_rollouts: ids.size,
    has_rollout_records: false,
    rollouts: ids.size,
    masked: 3, // 1-0, 2-0 and the retired tombstone 3-0, as the test above says
  });
});

test("a run of trainer logs only says it has no rollout files, not 0 rollouts and 0 alerts", async ({
  page,
}) => {
  // Runs whose directory holds neither rollouts.jsonl nor a token store, read from the files.
  const logsOnly = readdirSync(FIXTURE_RUNS).filter((id) => {
    const names = readdirSync(path.join(FIXTURE_RUNS, id));
    return (
      names.includes("run.json") && !names.includes("rollouts.jsonl") && !names.includes("tokens")
    );
  });
  expect(logsOnly.length).toBeGreaterThan(0);
  await page.goto("/");
  for (const id of logsOnly) {
    const row = page.locator(`[data-testid="runs-row"][data-run-id="${id}"]`);
    await expect(row.getByTestId("run-rollouts")).toContainText(/^no rollout files/);
    // Never "0": nothing was checked for it. A trainer's own alert (its mismatch) is counted.
    await expect(row.getByTestId("run-alerts")).toHaveText(/^(—|[1-9])/);
  }
});

test.describe("on a fresh server, its index cache empty", () => {
  const PORT = 3131;
  let server: ChildProcess | undefined;
  let cache: string | undefined;
  test.beforeAll(async () => {
    cache = scratchDir("rollout-lens-e2e-home-cache-");
    server = (await startNext(PORT, { ROLLOUT_LENS_RUNS: FIXTURE_RUNS, ROLLOUT_LENS_CACHE: cache }))
      .child;
  });
  test.afterAll(() => stopNext(server, cache));

  test("the home page moves from indexing to its final numbers by itself, no reload", async ({
    page,
  }) => {
    await page.goto(`http://127.0.0.1:${PORT}/`);
    // The first answer comes before any index has ended: some row says so.
    const partial = page.locator('[data-testid="runs-row"][data-partial]');
    await expect(partial.first()).toBeVisible();
    await page.evaluate(() => ((window as { loadedOnce?: true }).loadedOnce = true));
    await expect(partial).toHaveCount(0, { timeout: 60_000 });
    const row = page.locator('[data-testid="runs-row"][data-run-id="gym-main-example"]');
    await expect(row.getByTestId("run-rollouts")).toHaveText("5");
    await expect(row.getByTestId("run-masked")).toHaveText("3 (60.0%)");
    // The same document throughout: the rows were rendered again in place, not reloaded.
    expect(await page.evaluate(() => (window as { loadedOnce?: true }).loadedOnce)).toBe(true);
  });
});

test("at 1,000 px the runs table scrolls in its own box and the page does not scroll sideways", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1000, height: 800 });
  await page.goto("/");
  await expect(page.getByTestId("runs-table")).toBeVisible();
  const [page_, table, box] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.querySelector('[data-testid="runs-table"]')!.scrollWidth,
    window.innerWidth,
  ]);
  expect(table).toBeGreaterThan(box); // the table is wider than the window…
  expect(page_).toBeLessThanOrEqual(box); // …and only its box scrolls
});

test("a run with more alerts than its worst says how many more, and the run page lists them all", async ({
  page,
}) => {
  await page.goto("/");
  const row = page.locator('[data-testid="runs-row"][data-run-id="grpo-capture-on"]');
  // Its count once the run's health is in (a cell reads "—" or "so far" before).
  await expect(row.getByTestId("run-alert-count")).toHaveText(/^\d+$/, { timeout: 30_000 });
  const count = Number(await row.getByTestId("run-alert-count").innerText());
  expect(count).toBeGreaterThan(1);
  const more = row.getByTestId("run-more-alerts");
  await expect(more).toHaveText(
    `${count - 1} more alert${count - 1 === 1 ? "" : "s"} on the run page`,
  );
  await more.click();
  await expect(page).toHaveURL(/\/runs\/grpo-capture-on$/);
  await expect(page.getByTestId("alert")).toHaveCount(count);
});
