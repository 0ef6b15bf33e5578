import { expect, test, type Page } from "@playwright/test";
import {
  chainFacts,
  commonPrefix,
  heaviestChain,
  linkByPrefix,
  readEntries,
  sideCallPatterns,
} from "./support/fixture-truth";
import { TOKEN_VIEW } from "./support/token-view";

const CC = "/runs/claude-code-capture-on/rollouts";
const api = (run: string, rollout: string) => `/api/runs/${run}/rollouts/${rollout}`;
/** A claude-code rollout's calls linked from its token file (side calls by the run's patterns left out). */
const linkedCalls = (rollout: string) =>
  linkByPrefix(
    readEntries("claude-code-capture-on", rollout),
    sideCallPatterns("claude-code-capture-on"),
  );

async function treeRow(page: Page, callId: string) {
  return page.locator(`[data-testid="tree-row"][data-call-id="${callId}"]`);
}

test("side calls are labelled with their reason", async ({ page }) => {
  await page.goto(`${CC}/12-0`);
  const sides = page.locator('[data-testid="tree-row"][data-role="side_call"]');
  await expect(sides).toHaveCount(2);
  for (const row of await sides.all()) {
    await expect(row.getByTestId("tree-role")).toHaveText("side call");
    await expect(row.getByTestId("side-reason")).toHaveText('requested model matches "haiku"');
  }
  await expect(page.getByTestId("verdict-label")).toHaveText("trained on");
});

test("the unresolved final retry shows masked with that reason", async ({ page }) => {
  await page.goto(`${CC}/3-0`);
  await expect(page.getByTestId("verdict-label")).toHaveText("masked");
  await expect(page.getByTestId("verdict-reasons")).toHaveText("unresolved final retry");
  await expect(
    page.locator('[data-testid="tree-row"]').filter({ hasText: "retry unresolved" }),
  ).toHaveCount(2);
});

test("the compaction rollout shows two roots and a compaction prefix break", async ({ page }) => {
  const calls = linkedCalls("0-0");
  const roots = calls.filter((c) => c.parent < 0);
  expect(roots).toHaveLength(2);
  // The break: the main chain's root prompt against the other chain's calls, first difference.
  const main = heaviestChain(calls);
  const others = calls.filter((c) => !main.includes(c));
  const shared = Math.max(
    ...others.map((c) => commonPrefix(main[0]!.entry.prompt_token_ids, c.cum)),
  );
  await page.goto(`${CC}/0-0?tab=chains`);
  for (const r of roots)
    await expect(await treeRow(page, r.entry.model_call_id)).toHaveAttribute("aria-level", "1");
  await expect(page.getByTestId("chain-row")).toHaveCount(2);
  await expect(page.getByTestId("chain-row").first()).toContainText("main");
  const brk = page.getByTestId("prefix-break");
  await expect(brk).toHaveCount(1);
  await expect(brk.getByTestId("prefix-break-kind")).toContainText("compaction");
  await expect(brk).toContainText(`first difference at position ${shared}`);
  await expect(page.getByTestId("other-profile")).toContainText("gym-v1");
});

test("the token view colours generated and re-fed tokens differently and counts them", async ({
  page,
}) => {
  const main = chainFacts(heaviestChain(linkedCalls("0-0")));
  await page.goto(`${CC}/0-0`);
  await expect(page.getByTestId("token-counts")).toHaveText(
    `${main.length} tokens · ${main.generated} generated (mask 1) · ${main.length - main.generated} re-fed (mask 0)`,
  );
  const refed = page.locator(TOKEN_VIEW.at(0));
  await expect(refed).toHaveText("<|im_start|>");
  const bg = (l: typeof refed) => l.evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await bg(refed)).toBe("rgb(43, 50, 64)");
  await expect(refed).toHaveAttribute("data-mask", "0");
  // Jump to the first generated segment, then read a generated token's colour.
  const firstGen = main.rootPromptLength;
  await page.getByTestId("token-scroll").evaluate((el, y) => el.scrollTo(0, y), 0);
  const gen = page.locator(TOKEN_VIEW.at(firstGen));
  await gen.scrollIntoViewIfNeeded();
  await expect(gen).toHaveAttribute("data-mask", "1");
  expect(await bg(gen)).toMatch(/^rgba?\(76, 195, 138/);
  expect(await bg(gen)).not.toBe(await bg(page.locator(TOKEN_VIEW.at(firstGen - 1))));
  // Hover shows the token's details.
  await gen.hover();
  await expect(page.getByTestId("token-info")).toContainText("mask 1");
  await expect(page.getByTestId("token-info")).toContainText("log prob -");
  // Virtualisation is asserted on a ≥50k-token chain in big-rollouts.spec.ts (this chain is 738 tokens).
  await page.screenshot({ path: "test-results/rollout-tokens.png" });
});

test("the 422 after a tool call appears as a failed node", async ({ page }) => {
  await page.goto("/runs/opencode-before-fix/rollouts/0-0");
  const failed = page.locator('[data-testid="tree-row"][data-role="failed"]');
  await expect(failed).toHaveCount(1);
  await expect(failed.getByTestId("failed-status")).toHaveText("HTTP 422 client_error");
  await expect(failed).toContainText("extra_forbidden at body.messages.2.reasoning");
  await expect(failed).toHaveAttribute("aria-level", "2"); // after the one captured call
  await failed.click();
  await expect(page).toHaveURL(/tab=call/);
  await expect(page.getByTestId("error-body")).toContainText('"extra_forbidden"');
  await expect(page.getByTestId("verdict-label")).toHaveText("trained on"); // the silent part
});

test("deep links restore the same view", async ({ page }) => {
  const calls = linkedCalls("12-0");
  const linked = heaviestChain(calls)[1]!; // the main chain's second call inherits its parent's sequence
  const call = {
    model_call_id: linked.entry.model_call_id,
    inherited_len: calls[linked.parent]!.cum.length,
  };
  const url = `${CC}/12-0?tab=call&call=${call.model_call_id}`;
  await page.goto(url);
  await expect(page.getByTestId("call-detail")).toContainText(call.model_call_id);
  await expect(page.getByTestId("prompt-split")).toContainText(
    `${call.inherited_len} tokens inherited`,
  );
  await expect(await treeRow(page, call.model_call_id)).toHaveAttribute("aria-selected", "true");
  await page.getByTestId("show-call-tokens").click();
  await expect(page).toHaveURL(new RegExp(`chain=call%3A${call.model_call_id}`));
  await page.goto(`${CC}/12-0?chain=main&pos=600&low=-2`);
  await expect(page.getByTestId("token-info")).toContainText("pos 600");
  await expect(page.locator(TOKEN_VIEW.at(600))).toHaveClass(/sel/);
  await expect(page.getByTestId("low-toggle")).toBeChecked();
  await expect(page.getByTestId("low-count")).toContainText("generated tokens below -2");
  await page.reload();
  await expect(page.locator(TOKEN_VIEW.at(600))).toHaveClass(/sel/);
});

test("keyboard navigation moves through calls and tokens", async ({ page }) => {
  await page.goto(`${CC}/12-0`);
  const rows = page.getByTestId("tree-row");
  await expect(rows.first()).toBeVisible();
  const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-call-id")));
  await rows.first().click();
  await expect(page).toHaveURL(new RegExp(`call=${ids[0]}`));
  await page.getByTestId("call-tree").focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown"); // faster than the URL updates
  await expect(page).toHaveURL(new RegExp(`call=${ids[2]}`));
  await page.keyboard.press("ArrowUp");
  await expect(page).toHaveURL(new RegExp(`call=${ids[1]}`));
  await page.getByTestId("tab-tokens").click();
  await expect(page.locator(TOKEN_VIEW.painted).first()).toBeVisible(); // keys before the first window are ignored
  await page.getByTestId("token-scroll").focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(/pos=2(&|$)/);
  await expect(page.getByTestId("token-info")).toContainText("pos 2");
  await page.keyboard.press("ArrowDown"); // a row down
  await expect(page).toHaveURL(/pos=22(&|$)/);
});

test("unknown rollouts and path tricks are 404 pages; the API explains", async ({
  page,
  request,
}) => {
  expect((await page.goto(`${CC}/99-9`))?.status()).toBe(404);
  expect((await page.goto(`${CC}/..%2F..%2Fetc`))?.status()).toBe(404);
  const res = await request.get(api("claude-code-capture-on", "99-9"));
  expect(res.status()).toBe(404);
  expect((await res.json()).error).toBe("unknown rollout 99-9 in run claude-code-capture-on");
  const bad = await request.get(
    `${api("claude-code-capture-on", "0-0")}/tokens?chain=main&offset=-5`,
  );
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error).toMatch(/offset must be a non-negative integer/);
});
