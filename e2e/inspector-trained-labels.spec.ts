// One rule for "trained" (lib/view/sequence-training) in the browser: the README's
// claude-code-capture-on 2-0 has a 60 s first attempt dropped for its retry. Shown alone, its
// generated tokens are never labelled or coloured trained, whatever the rollout's verdict; and
// `?call=N` selects the timeline's call N (the banner's numbering), as hash ids still do.
import { expect, test } from "@playwright/test";
import { readEntries } from "./support/fixture-truth";
import { TOKEN_VIEW } from "./support/token-view";

const CC = "/runs/claude-code-capture-on/rollouts";
// "trained" not preceded by "not ": a claim that tokens are trained.
const CLAIMS_TRAINED = /(?<!not )\btrained\b/i;

test.use({ viewport: { width: 1400, height: 900 } });

test("2-0: the dropped retry shown alone is never labelled trained", async ({ page }) => {
  await page.goto(`${CC}/2-0`);
  const dropped = page.getByTestId("timeline-row").filter({ hasText: "retry dropped" });
  await expect(dropped).toHaveCount(1);
  const id = await dropped.getAttribute("data-call-id");
  expect(id).toBeTruthy();
  // Its entry is in the token file (the fixture's own truth): it generated tokens.
  const entry = readEntries("claude-code-capture-on", "2-0").find((e) => e.model_call_id === id);
  expect(entry).toBeTruthy();
  await page.goto(`${CC}/2-0?chain=${encodeURIComponent(`call:${id}`)}&call=${id}`);
  const own = page.locator(`[data-testid="segment-header"][data-call-id="${id}"][data-trained]`);
  await expect(own.first()).toBeVisible();
  for (const text of await own.allTextContents()) {
    expect(text).toContain("not trained (retry dropped)");
    expect(text).not.toMatch(CLAIMS_TRAINED);
  }
  await expect(own.first()).toHaveAttribute("data-trained", "false");
  // The legend shows the not-trained style and why, not the trained probability scale.
  await expect(page.getByTestId("token-legend-not-trained")).toContainText(
    "not trained (retry dropped)",
  );
  await expect(page.getByTestId("token-legend-shades")).toHaveCount(0);
  // Every painted generated token is drawn not trained; select one and read the info line.
  const generated = page.locator(`${TOKEN_VIEW.painted}[data-mask="1"]`);
  await expect(generated.first()).toBeVisible();
  expect(await generated.count()).toBe(
    await page.locator(`${TOKEN_VIEW.painted}[data-mask="1"][data-not-trained]`).count(),
  );
  await generated.first().click();
  await expect(page.getByTestId("token-info-mask")).toHaveText(
    "mask 1 · not trained (retry dropped)",
  );
  // The banner never calls this call's tokens trained either: the whole token view agrees.
  await expect(page.getByTestId("token-view")).not.toContainText("generated (mask 1, trained");
});

test("2-0: the main chain's generated tokens are the trained ones", async ({ page }) => {
  await page.goto(`${CC}/2-0?chain=main`);
  await expect(page.locator(TOKEN_VIEW.painted).first()).toBeVisible();
  // The chain ends in a generated segment: its header is near the bottom.
  const headers = page.locator('[data-testid="segment-header"][data-trained]');
  await expect
    .poll(
      async () => {
        await page.locator(TOKEN_VIEW.scroll).evaluate((el) => el.scrollTo(0, el.scrollHeight));
        return headers.count();
      },
      { message: "a generated segment's header is painted", intervals: [100, 200] },
    )
    .toBeGreaterThan(0);
  for (const flag of await headers.evaluateAll((els) => els.map((e) => e.dataset.trained)))
    expect(flag).toBe("true");
  await expect(page.getByTestId("token-legend-shades")).toBeVisible();
  await expect(page.locator(`${TOKEN_VIEW.painted}[data-not-trained]`)).toHaveCount(0);
});

test("?call=2 selects the timeline's call 2; a hash id still works", async ({ page }) => {
  await page.goto(`${CC}/2-0?tab=call&call=2`);
  const second = page.locator('[data-testid="timeline-row"][data-call-number="2"]');
  await expect(second).toHaveAttribute("aria-selected", "true");
  const id = (await second.getAttribute("data-call-id")) as string;
  // The URL then names the call by its id, and the detail is that call's (no "no call 2").
  await expect(page).toHaveURL(new RegExp(`[?&]call=${id}(&|$)`));
  await expect(page.locator(".inspector-right")).not.toContainText("no call 2");
  await page.goto(`${CC}/2-0?tab=call&call=${id}`);
  await expect(second).toHaveAttribute("aria-selected", "true");
});

test("the banner's 'call 2' links to ?call=2", async ({ page }) => {
  // opencode-before-fix 0-0 is cut short by the 422 on call 2 (README).
  await page.goto("/runs/opencode-before-fix/rollouts/0-0");
  const link = page.getByTestId("verdict-call-link").filter({ hasText: "call 2" }).first();
  await expect(link).toHaveAttribute("href", /[?&]call=2(&|$)/);
  await link.click();
  await expect(page.locator('[data-testid="timeline-row"][data-call-number="2"]')).toHaveAttribute(
    "aria-selected",
    "true",
  );
});
