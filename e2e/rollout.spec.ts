import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import {
  chainFacts,
  commonPrefix,
  heaviestChain,
  linkByPrefix,
  isPatternSideCall,
  readEntries,
  sideCallPatterns,
} from "./support/fixture-truth";
import { FIXTURE_RUNS } from "./support/paths";
import { paintedToken, TOKEN_VIEW } from "./support/token-view";

const CC = "/runs/claude-code-capture-on/rollouts";
const api = (run: string, rollout: string) => `/api/runs/${run}/rollouts/${rollout}`;
/** A claude-code rollout's calls linked from its token file (side calls by the run's patterns left out). */
const linkedCalls = (rollout: string) =>
  linkByPrefix(
    readEntries("claude-code-capture-on", rollout),
    sideCallPatterns("claude-code-capture-on"),
  );

/** A call's row in the flat call timeline. */
function timelineRow(page: Page, callId: string) {
  return page.locator(`[data-testid="timeline-row"][data-call-id="${callId}"]`);
}

test("side calls are labelled with their reason", async ({ page }) => {
  await page.goto(`${CC}/12-0`);
  const entries = readEntries("claude-code-capture-on", "12-0");
  const patterns = sideCallPatterns("claude-code-capture-on");
  const expected = entries.filter((e) => isPatternSideCall(e, patterns));
  expect(expected).toHaveLength(2);
  const sides = page.locator('[data-testid="timeline-row"][data-role="side_call"]');
  await expect(sides).toHaveCount(expected.length);
  for (const e of expected) {
    const role = timelineRow(page, e.model_call_id).locator("span").first();
    await expect(role).toContainText("side call");
    // The reason is the role cell's title (the cell stays one line wide).
    await expect(role).toHaveAttribute(
      "title",
      `side call: requested model matches "${patterns.find((p) => e.requested_model!.toLowerCase().includes(p))}"`,
    );
  }
  await expect(page.getByTestId("verdict-label")).toHaveText("trained");
  await expect(page.getByTestId("verdict-bar")).toHaveAttribute("data-severity", "trained");
});

test("the unresolved final retry shows masked with that reason", async ({ page }) => {
  await page.goto(`${CC}/3-0`);
  await expect(page.getByTestId("verdict-label")).toHaveText("masked");
  await expect(page.getByTestId("verdict-bar")).toHaveAttribute("data-severity", "masked");
  await expect(page.getByTestId("verdict-sentences")).toContainText(
    "Unresolved final retry: the builder cannot tell which of 2 calls",
  );
  await expect(
    page.locator('[data-testid="timeline-row"]').filter({ hasText: "retry unresolved" }),
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
  // Depth counts branch points: both roots sit at the left edge.
  for (const r of roots) {
    await expect(timelineRow(page, r.entry.model_call_id)).toHaveAttribute("data-depth", "0");
    await expect(timelineRow(page, r.entry.model_call_id)).toHaveAttribute("aria-level", "1");
  }
  await expect(page.getByTestId("chain-row")).toHaveCount(2);
  await expect(page.getByTestId("chain-row").first()).toContainText("main");
  const brk = page.getByTestId("prefix-break");
  await expect(brk).toHaveCount(1);
  await expect(brk.getByTestId("prefix-break-kind")).toContainText("compaction");
  await expect(brk).toContainText(`first difference at position ${shared}`);
  await expect(page.getByTestId("other-profile")).toContainText("gym-v1");
  // gym-v1 keeps the side calls and links by prefix alone: its roots, from the files on disk.
  const entries = readEntries("claude-code-capture-on", "0-0");
  const gymRoots = linkByPrefix(entries, []).filter((c) => c.parent < 0).length;
  const side = entries.filter((e) =>
    isPatternSideCall(e, sideCallPatterns("claude-code-capture-on")),
  ).length;
  expect(gymRoots).toBeGreaterThan(roots.length);
  const why = page.getByTestId("roots-other-profile");
  await expect(why).toContainText(
    `seed counts ${roots.length} roots here, gym-v1 ${gymRoots} roots (its consumer masks the rollout for it)`,
  );
  await expect(why).toContainText(`seed sets ${side} side calls aside before it links`);
});

/** The background a generated token with this log prob is drawn on: greener the more probable. */
function generatedBackground(logProb: number | null | undefined): string {
  if (logProb === null || logProb === undefined) return "rgb(53, 89, 75)";
  const p = Math.exp(Math.min(0, logProb));
  const bands: Array<[number, string]> = [
    [0.9, "rgb(143, 227, 181)"],
    [0.7, "rgb(92, 196, 142)"],
    [0.5, "rgb(63, 158, 110)"],
    [0.3, "rgb(40, 112, 76)"],
    [0.1, "rgb(31, 80, 56)"],
  ];
  return bands.find(([min]) => p >= min)?.[1] ?? "rgb(23, 53, 38)";
}

test("the token view colours generated and re-fed tokens differently and counts them", async ({
  page,
}) => {
  const chain = heaviestChain(linkedCalls("0-0"));
  const main = chainFacts(chain);
  await page.goto(`${CC}/0-0`);
  await expect(page.getByTestId("token-counts")).toHaveText(
    `${main.length} tokens · ${main.generated} generated (mask 1) · ${main.length - main.generated} re-fed (mask 0)`,
  );
  const refed = page.locator(TOKEN_VIEW.at(0));
  await expect(refed).toHaveText("<|im_start|>");
  const bg = (l: typeof refed) => l.evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await bg(refed)).toBe("rgb(43, 50, 64)");
  await expect(refed).toHaveAttribute("data-mask", "0");
  // Scroll to the first generated token (the root call's first generated one) and read its colour.
  const firstGen = main.rootPromptLength;
  const gen = await paintedToken(page, firstGen);
  await expect(gen).toHaveAttribute("data-mask", "1");
  expect(await bg(gen)).toBe(generatedBackground(chain[0]!.entry.generation_log_probs?.[0]));
  await expect(page.locator(TOKEN_VIEW.at(firstGen - 1))).toHaveAttribute("data-mask", "0");
  expect(await bg(gen)).not.toBe(await bg(page.locator(TOKEN_VIEW.at(firstGen - 1))));
  // Hover shows the token's details.
  await gen.hover();
  await expect(page.getByTestId("token-info")).toContainText("mask 1");
  await expect(page.getByTestId("token-info")).toContainText("log prob -");
  // Virtualisation is asserted on a ≥50k-token chain in big-rollouts.spec.ts (this chain is 738 tokens).
  await page.screenshot({ path: "test-results/rollout-tokens.png" });
});

test("the 422 after a tool call appears as a failed row where it happened", async ({ page }) => {
  const run = "opencode-before-fix";
  const captured = readEntries(run, "0-0");
  const exchanges = readFileSync(
    path.join(FIXTURE_RUNS, run, "model-calls", "0-0.capture.jsonl"),
    "utf8",
  )
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { model_call_id: string; status_code: number });
  const failedCall = exchanges.filter((x) => x.status_code >= 400);
  expect(failedCall).toHaveLength(1);
  await page.goto(`/runs/${run}/rollouts/0-0`);
  const failed = page.locator('[data-testid="timeline-row"][data-role="failed"]');
  await expect(failed).toHaveCount(1);
  await expect(failed).toHaveAttribute("data-call-id", failedCall[0]!.model_call_id);
  await expect(failed).toContainText(`HTTP ${failedCall[0]!.status_code} client_error`);
  await expect(failed).toContainText("extra_forbidden at messages[2].reasoning");
  // In time order, after every captured call.
  await expect(failed).toHaveAttribute("data-call-number", String(captured.length + 1));
  await failed.click();
  await expect(page).toHaveURL(/tab=call/);
  await expect(page.getByTestId("error-body")).toContainText('"extra_forbidden"');
  // No longer silent: trained on, with the cut-short warning.
  await expect(page.getByTestId("verdict-bar")).toHaveAttribute(
    "data-severity",
    "trained_with_warnings",
  );
  await expect(page.getByTestId("verdict-label")).toHaveText("trained, warnings");
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
  await expect(timelineRow(page, call.model_call_id)).toHaveAttribute("aria-selected", "true");
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

test("the low-probability threshold can be typed, one keystroke at a time", async ({ page }) => {
  await page.goto(`${CC}/12-0?chain=main&low=-2`);
  const box = page.getByTestId("low-threshold");
  await box.fill("");
  await box.pressSequentially("-1.5");
  await expect(page).toHaveURL(/low=-1\.5(&|$)/);
  await expect(box).toHaveValue("-1.5");
  await expect(box).toBeEnabled();
  await expect(page.getByTestId("low-toggle")).toBeChecked();
  await expect(page.getByTestId("low-count")).toContainText("generated tokens below -1.5");
});

test("keyboard navigation moves through calls and tokens", async ({ page }) => {
  await page.goto(`${CC}/12-0`);
  const rows = page.getByTestId("timeline-row");
  await expect(rows.first()).toBeVisible();
  const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-call-id")));
  // Rows are in time order (created_at); the keys below walk them in that order.
  const byTime = readEntries("claude-code-capture-on", "12-0").sort(
    (a, b) => (a.created_at ?? 0) - (b.created_at ?? 0),
  );
  expect(ids).toEqual(byTime.map((e) => e.model_call_id));
  await rows.first().click();
  await expect(page).toHaveURL(new RegExp(`call=${ids[0]}`));
  await page.locator('[data-testid="call-timeline"] [role="tree"]').focus();
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
  // A line down: the same index in the next line of text (lines end at newlines), as drawn.
  const below = await page.locator('[data-testid="token-line"]').evaluateAll((lines) => {
    const spans = (l: Element) => [...l.querySelectorAll<HTMLElement>(".tok[data-pos]")];
    const at = lines.findIndex((l) => spans(l).some((t) => t.dataset.pos === "2"));
    const here = spans(lines[at]!).map((t) => Number(t.dataset.pos));
    const next = spans(lines[at + 1]!).map((t) => Number(t.dataset.pos));
    return next[Math.min(next.length - 1, here.indexOf(2))];
  });
  expect(below).toBeGreaterThan(2);
  await page.keyboard.press("ArrowDown");
  await expect(page).toHaveURL(new RegExp(`pos=${below}(&|$)`));
  await expect(page.getByTestId("token-info")).toContainText(`pos ${below}`);
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
