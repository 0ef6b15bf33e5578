// The run page's layout in a 1400×900 window: the rollouts table in the first screen (above the
// charts), its id column in view when the table scrolls sideways, a click anywhere in a header
// cell sorts, and a chart with nothing to draw is one line of text. (e2e/run.spec.ts: the numbers.)
import { expect, test, type Page } from "@playwright/test";
import {
  callsCellText,
  countExchanges,
  readEntries,
  readRecords,
  rolloutId,
  storedRollouts,
} from "./support/fixture-truth";

const BEFORE = "opencode-before-fix";
const CC = "claude-code-capture-on";
const VIEW = { width: 1400, height: 900 };

test.use({ viewport: VIEW });

/** The table's sticky id cell and a plain cell of the first row, their boxes in the window. */
async function firstRowBoxes(page: Page) {
  const row = page.getByTestId("rollout-row").first();
  return {
    id: (await row.locator('.vcell[data-col="rollout_id"]').boundingBox())!,
    step: (await row.locator('.vcell[data-col="step"]').boundingBox())!,
  };
}

for (const scheme of ["dark", "light"] as const) {
  test(`${scheme}: the table is in the first screen and its id column stays when it scrolls sideways`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`/runs/${BEFORE}`);
    const table = page.getByTestId("rollouts-table");
    await expect(page.getByTestId("rollouts-count")).toHaveText(
      `${storedRollouts(BEFORE).length} of ${storedRollouts(BEFORE).length} rollouts`,
    );
    // The alerts stay above the table; the table's top is within the first 900 px, charts below it.
    const alert = (await page.getByTestId("alert").first().boundingBox())!;
    const top = (await table.boundingBox())!;
    expect(alert.y).toBeLessThan(top.y);
    expect(top.y).toBeLessThan(VIEW.height - 60);
    expect((await page.getByTestId("charts").boundingBox())!.y).toBeGreaterThan(top.y);

    // The table is wider than the window's table box (so it scrolls), then scrolled to its right end.
    const { scrollWidth, clientWidth } = await table.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }));
    expect(scrollWidth).toBeGreaterThan(clientWidth);
    const before = await firstRowBoxes(page);
    await table.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect.poll(() => table.evaluate((el) => el.scrollLeft)).toBe(scrollWidth - clientWidth);
    const after = await firstRowBoxes(page);
    // The step column moved left by the scroll; the id cell stayed where it was, inside the table.
    expect(before.step.x - after.step.x).toBeGreaterThan(100);
    expect(Math.abs(after.id.x - before.id.x)).toBeLessThanOrEqual(1);
    expect(after.id.x).toBeGreaterThanOrEqual(top.x);
    await expect(page.getByTestId("rollout-row").first().getByRole("link")).toBeVisible();
    // Opaque: nothing scrolled under it shows through, in either theme.
    const bg = await page
      .getByTestId("rollout-row")
      .first()
      .locator('.vcell[data-col="rollout_id"]')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bg).toMatch(/^rgb\(/);
    const headBg = await page
      .getByRole("columnheader", { name: /Rollout/ })
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(headBg).toMatch(/^rgb\(/);
  });
}

test("a click in a header cell outside its label sorts; the keyboard sorts too", async ({
  page,
}) => {
  const calls = readRecords(CC).map((r) => countExchanges(CC, rolloutId(r)));
  await page.goto(`/runs/${CC}`);
  await expect(page.getByTestId("rollouts-count")).toHaveText(`${calls.length} of 40 rollouts`);
  const header = page.getByRole("columnheader", { name: /Calls/ });
  await expect(header).toHaveAttribute("aria-sort", "none");
  const cell = (await header.boundingBox())!;
  // Where the label's text ends, from the layout: the click goes right of it, in the same cell.
  const textRight = await page.getByTestId("sort-n_calls").evaluate((el) => {
    const r = document.createRange();
    r.selectNodeContents(el);
    return r.getBoundingClientRect().right;
  });
  const x = cell.x + cell.width - 3;
  expect(x).toBeGreaterThan(textRight + 5);
  await page.mouse.click(x, cell.y + cell.height - 3);
  await expect(page).toHaveURL(/sort=n_calls&dir=desc/);
  await expect(header).toHaveAttribute("aria-sort", "descending");
  const callsCell = page.getByTestId("rollout-row").first().locator('.vcell[data-col="n_calls"]');
  await expect(callsCell).toHaveText(callsCellText(Math.max(...calls)));
  await page.getByTestId("sort-n_calls").focus();
  await page.keyboard.press("Enter");
  await expect(header).toHaveAttribute("aria-sort", "ascending");
  await expect(callsCell).toHaveText(callsCellText(Math.min(...calls)));
});

test("a chart with nothing to draw is one line of text, not a panel", async ({ page }) => {
  const ids = storedRollouts(BEFORE);
  // From the capture: one call per rollout (no side calls) and no record masked.
  expect(ids.every((id) => readEntries(BEFORE, id).length === 1)).toBe(true);
  expect(readRecords(BEFORE).some((r) => r.mask_sample)).toBe(false);
  await page.goto(`/runs/${BEFORE}`);
  for (const [id, words] of [
    ["side-calls", "no side calls"],
    ["mask-reasons", "no masked rollouts"],
  ] as const) {
    const line = page.getByTestId(`chart-${id}`);
    await expect(line).toHaveText(words);
    await expect(line.locator("figure, svg")).toHaveCount(0);
    expect((await line.boundingBox())!.height).toBeLessThan(30);
  }
  await expect(page.locator("figure.chart").getByText("none", { exact: true })).toHaveCount(0);
});

test("the table is as tall as its rows, up to 62% of the window, then scrolls", async ({
  page,
}) => {
  const few = storedRollouts(BEFORE).length;
  await page.goto(`/runs/${BEFORE}`);
  await expect(page.getByTestId("rollouts-count")).toHaveText(`${few} of ${few} rollouts`);
  const table = page.getByTestId("rollouts-table");
  const rows = page.getByTestId("rollout-row");
  await expect(rows).toHaveCount(few);
  const head = (await table.getByRole("row").first().boundingBox())!;
  const last = (await rows.last().boundingBox())!;
  // Below its last row only the sideways scrollbar and the border: no empty box.
  const box = (await table.boundingBox())!;
  expect(few * last.height).toBeLessThan(VIEW.height * 0.62);
  expect(box.y + box.height - (last.y + last.height)).toBeLessThan(24);
  expect(box.height).toBeGreaterThan(head.height + few * last.height - 1);

  // 40 rollouts are taller than the box: it stops at 62vh and scrolls.
  await page.goto(`/runs/${CC}`);
  await expect(page.getByTestId("rollouts-count")).toHaveText("40 of 40 rollouts");
  // The box's height, borders included, is at most 62vh; at least that less its two borders.
  const cap = VIEW.height * 0.62;
  await expect.poll(async () => (await table.boundingBox())!.height).toBeGreaterThan(cap - 3);
  expect((await table.boundingBox())!.height).toBeLessThanOrEqual(cap + 2);
  expect(await table.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
});
