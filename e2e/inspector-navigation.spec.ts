import type { ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import {
  entryLengths,
  fmtInt,
  heaviestChain,
  isPatternSideCall,
  linkByPrefix,
  readEntries,
  sideCallPatterns,
} from "./support/fixture-truth";
import { E2E_RUNS, GENERATED_ROLLOUT, LARGE_RUN } from "./support/paths";
import { scratchDir, startNext, stopNext } from "./support/server";
import { expectHydrated } from "./support/hydration";
import { TOKEN_VIEW } from "./support/token-view";

// Moving around the inspector: a `pos` deep link into the 200k-token rollout lands on its token,
// selected; selecting a call keeps the tab and moves it to the call; "view tokens" opens at the
// call's first token; only the panels scroll, never the page; hovering never hides the selected
// token; a rollout with no chain says why instead of an error. Positions, calls and items come
// from the token files on disk (support/fixture-truth.ts), never from the server under test.

const CC = "/runs/claude-code-capture-on/rollouts";
const LARGE_PAGE = `/runs/${LARGE_RUN}/rollouts/${GENERATED_ROLLOUT}`;
const LARGE_STORE = path.join(E2E_RUNS, LARGE_RUN, "tokens", `${GENERATED_ROLLOUT}.tokens.jsonl`);
const TREE = '[data-testid="call-timeline"] [role="tree"]';
const SLOW = { timeout: 120_000 };
/** A call id as the views shorten it (components/rollout/labels.ts). */
const shortId = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…` : id);

/**
 * The 500-call rollout's one append-only chain, in chain order: where each call's own tokens start
 * (after everything before it), where its generation starts and ends, and its conversation items
 * (its new prompt tokens, then its generation; no chat template in random ids).
 */
async function largeChain() {
  const calls = (await entryLengths(LARGE_STORE)).sort((a, b) => a.prompt - b.prompt);
  let cum = 0;
  let items = 0;
  return calls.map((c) => {
    expect(c.prompt, "each prompt extends the one before").toBeGreaterThanOrEqual(cum);
    const call = { ...c, start: cum, genStart: c.prompt, end: c.prompt + c.generated, item: items };
    items += Number(c.prompt > cum) + Number(c.generated > 0);
    cum = call.end;
    return call;
  });
}

/**
 * A call the timeline draws without scrolling (among its first 25 rows, in time order) that sits as
 * far down the chain as those go: selecting it has to move the token and conversation views.
 */
function laterCall(chain: Awaited<ReturnType<typeof largeChain>>) {
  const early = [...chain].sort((a, b) => a.created_at - b.created_at).slice(0, 25);
  const picked = early.reduce((a, b) => (b.start > a.start ? b : a));
  expect(picked.start, "the call starts past what the panel shows first").toBeGreaterThan(300);
  expect(picked.item, "the call's items start past the first few").toBeGreaterThan(4);
  return picked;
}

/** Runs in the page: where the token at `pos` is, relative to the token panel and the window. */
function placement([scrollSel, pos]: [string, number]): string {
  const scroll = document.querySelector<HTMLElement>(scrollSel);
  const token = scroll?.querySelector<HTMLElement>(`.tok[data-pos="${pos}"]`);
  if (!scroll || !token) return "not drawn";
  const box = scroll.getBoundingClientRect();
  const top = box.top + scroll.clientTop;
  const bottom = top + scroll.clientHeight;
  const at = token.getBoundingClientRect();
  if (at.top < top - 1 || at.bottom > bottom + 1 || bottom > window.innerHeight + 1)
    return "off screen";
  const loading = [...scroll.querySelectorAll('[data-testid="token-placeholder"]')].some((p) => {
    const r = p.getBoundingClientRect();
    return r.bottom > top && r.top < bottom;
  });
  return loading ? "windows around it loading" : "in view";
}

/** The token at `pos` comes into the token panel once the windows around it have loaded, and stays. */
async function expectTokenInView(page: Page, pos: number): Promise<void> {
  const where = () => page.evaluate(placement, [TOKEN_VIEW.scroll, pos] as [string, number]);
  await expect
    .poll(where, { message: `token ${pos} in the panel`, intervals: [50, 100], ...SLOW })
    .toBe("in view");
  // Still there a few frames later: nothing that loaded after it moved it away.
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        let n = 0;
        const tick = () => (++n >= 10 ? done() : requestAnimationFrame(tick));
        requestAnimationFrame(tick);
      }),
  );
  expect(await where()).toBe("in view");
}

test.describe("the 500-call, 200k-token rollout", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("a pos deep link scrolls to its token and shows it selected", async ({ page }) => {
    test.setTimeout(240_000);
    const chain = await largeChain();
    const total = chain.at(-1)!.end;
    expect(total, "about 200k tokens").toBeGreaterThan(190_000);
    const pos = Math.floor(total * 0.77) + 123; // deep in the chain, inside a window
    const call = chain.find((c) => c.start <= pos && pos < c.end)!;
    await page.goto(`${LARGE_PAGE}?tab=tokens&pos=${pos}`, SLOW);
    const token = page.locator(TOKEN_VIEW.at(pos));
    await expect(token).toHaveClass(/(^|\s)sel(\s|$)/, SLOW);
    await expect(token).toHaveAttribute("data-mask", pos >= call.genStart ? "1" : "0");
    await expectTokenInView(page, pos);
    const info = page.getByTestId("token-info-selected");
    await expect(info).toContainText(`pos ${fmtInt(pos)}`);
    await expect(info).toContainText(`call ${shortId(call.id)}`);
    await expect(info).toContainText(`mask ${pos >= call.genStart ? 1 : 0}`);
  });

  test("selecting a call keeps the token tab and scrolls to the call's first token", async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const chain = await largeChain();
    const picked = laterCall(chain);
    await page.goto(LARGE_PAGE, SLOW);
    await expect(page.locator(TOKEN_VIEW.painted).first()).toBeVisible(SLOW);
    const row = page.locator(`[data-testid="timeline-row"][data-call-id="${picked.id}"]`);
    await expectHydrated(row);
    await row.click();
    await expect(page).toHaveURL(new RegExp(`call=${picked.id}`));
    await expect(row).toHaveAttribute("aria-selected", "true");
    expect(page.url()).not.toMatch(/tab=call\b/);
    await expect(page.getByTestId("tab-tokens")).toHaveAttribute("aria-selected", "true");
    await expectTokenInView(page, picked.start);
    await expect(
      page.locator(`[data-testid="segment-header"][data-call-id="${picked.id}"]`).first(),
    ).toBeInViewport();
    // The call's detail stays one click away.
    await page.getByTestId("tab-call").click();
    await expect(page.getByTestId("call-detail")).toContainText(picked.id);
  });

  test("selecting a call keeps the conversation tab and scrolls to the call's first item", async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const picked = laterCall(await largeChain());
    await page.goto(`${LARGE_PAGE}?tab=conversation`, SLOW);
    await expect(page.getByTestId("conversation-message").first()).toBeVisible(SLOW);
    const row = page.locator(`[data-testid="timeline-row"][data-call-id="${picked.id}"]`);
    await expectHydrated(row);
    await row.click();
    await expect(page).toHaveURL(new RegExp(`call=${picked.id}`));
    await expect(page).toHaveURL(new RegExp(`message=${picked.item}(&|$)`), SLOW);
    await expect(page).toHaveURL(/tab=conversation/);
    await expect(page.getByTestId("tab-conversation")).toHaveAttribute("aria-selected", "true");
    const item = page.locator(`[data-testid="conversation-scroll"] [data-index="${picked.item}"]`);
    await expect(item).toBeInViewport(SLOW);
    await expect(item).toContainText(picked.id.slice(0, 8));
    // The item opens the call: its new prompt tokens, else its generation.
    await expect(item).toContainText(`tokens ${picked.start}–`);
  });

  test("'view tokens' opens the call alone at its own first token, deep in the chain", async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const chain = await largeChain();
    const call = chain[399]!; // its own tokens start after 399 calls of inherited prefix
    await page.goto(`${LARGE_PAGE}?tab=call&call=${call.id}`, SLOW);
    await page.getByTestId("show-call-tokens").click();
    await expect(page).toHaveURL(new RegExp(`chain=call%3A${call.id}`));
    await expect(page).toHaveURL(new RegExp(`pos=${call.start}(&|$)`));
    await expect(page).toHaveURL(/tab=tokens/);
    await expect(page.locator(TOKEN_VIEW.at(call.start))).toHaveClass(/(^|\s)sel(\s|$)/, SLOW);
    await expectTokenInView(page, call.start);
    await expect(page.getByTestId("token-info-selected")).toContainText(
      `pos ${fmtInt(call.start)}`,
    );
  });
});

test("'view tokens' on a sample rollout opens at the call's prompt tail, not at position 0", async ({
  page,
}) => {
  const run = "claude-code-capture-on";
  const main = heaviestChain(linkByPrefix(readEntries(run, "12-0"), sideCallPatterns(run)));
  const linked = main[2]!; // the third main call: it inherits the two before it
  const inherited = main[1]!.cum.length;
  const own = linked.entry.prompt_token_ids.length - inherited;
  const id = linked.entry.model_call_id;
  await page.goto(`${CC}/12-0?tab=call&call=${id}`);
  await page.getByTestId("show-call-tokens").click();
  await expect(page).toHaveURL(new RegExp(`chain=call%3A${id}`));
  await expect(page).toHaveURL(new RegExp(`pos=${inherited}(&|$)`));
  const token = page.locator(TOKEN_VIEW.at(inherited));
  await expect(token).toHaveClass(/(^|\s)sel(\s|$)/);
  await expect(token).toHaveAttribute("data-mask", own > 0 ? "0" : "1");
  await expectTokenInView(page, inherited);
  await expect(page.getByTestId("token-info-selected")).toContainText(`pos ${inherited}`);
});

test("hovering a token never replaces the selected token in the info line", async ({ page }) => {
  await page.goto(`${CC}/12-0?pos=5`);
  const selected = page.getByTestId("token-info-selected");
  await expect(selected).toContainText("pos 5");
  await page.locator(TOKEN_VIEW.at(9)).hover();
  await expect(page.getByTestId("token-info-hovered")).toContainText("pos 9");
  await expect(selected).toContainText("pos 5");
  // A key moves the selection while the mouse still rests on token 9.
  await page.getByTestId("token-scroll").focus();
  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(/pos=6(&|$)/);
  await expect(selected).toContainText("pos 6");
  await expect(page.getByTestId("token-info-hovered")).toContainText("pos 9");
});

test.describe("a rollout with no chain", () => {
  test("every call a side call: the token tab says why, and shows a call alone, not an error", async ({
    page,
  }) => {
    const run = "claude-code-capture-on";
    const entries = readEntries(run, "7-0");
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => isPatternSideCall(e, sideCallPatterns(run)))).toBe(true);
    await page.goto(`${CC}/7-0`);
    const notice = page.getByTestId("no-chain");
    await expect(notice).toContainText(
      `No chain to show: the builder made no chain from the ${entries.length} captured calls.`,
    );
    await expect(notice.getByTestId("no-chain-reason").first()).toContainText("side call");
    await expect(notice).not.toHaveText(/\btrained\b/i); // a masked rollout never says trained
    await expect(page.locator(".inspector-right .error-box")).toHaveCount(0);
    await expect(page.locator(TOKEN_VIEW.painted).first()).toBeVisible(); // the first call alone
    // Asked for the main chain by URL: the same words, no error, and a way to a call.
    await page.goto(`${CC}/7-0?chain=main`);
    await expect(notice).toContainText("No chain to show");
    await expect(page.locator(".inspector-right .error-box")).toHaveCount(0);
    await expect(page.getByTestId("token-view")).toHaveCount(0);
    await page.getByTestId("no-chain-show-call").click();
    await expect(page).toHaveURL(/chain=call%3A/);
    await expect(page.locator(TOKEN_VIEW.painted).first()).toBeVisible();
  });

  test.describe("an empty token file, on its own server", () => {
    const PORT = 3129;
    let server: ChildProcess | undefined;
    let url = "";
    let [root, cache] = ["", ""];
    test.beforeAll(async () => {
      [root, cache] = [scratchDir("rollout-lens-empty-"), scratchDir("rollout-lens-empty-cache-")];
      mkdirSync(path.join(root, "empty-store", "tokens"), { recursive: true });
      writeFileSync(path.join(root, "empty-store", "tokens", "0-0.tokens.jsonl"), "");
      const started = await startNext(PORT, {
        ROLLOUT_LENS_RUNS: root,
        ROLLOUT_LENS_CACHE: cache,
      });
      [url, server] = [started.url, started.child];
    });
    test.afterAll(() => stopNext(server, root, cache));

    test("says there is no captured call, in words, not a 404 box", async ({ page }) => {
      await page.goto(`${url}/runs/empty-store/rollouts/0-0`);
      await expect(page.getByTestId("no-chain")).toContainText(
        "No chain to show: this rollout has no captured call with a token entry.",
      );
      await expect(page.getByTestId("no-chain-reason")).not.toHaveCount(0);
      await expect(page.locator(".error-box")).toHaveCount(0);
      await expect(page.getByTestId("token-view")).toHaveCount(0);
    });
  });
});

for (const [width, height] of [
  [1400, 900],
  [1280, 720],
] as const) {
  test.describe(`at ${width}×${height}`, () => {
    test.use({ viewport: { width, height } });

    test("the inspector fills the viewport: only its panels scroll, never the page", async ({
      page,
    }) => {
      test.setTimeout(240_000);
      const pages = [LARGE_PAGE, "/runs/opencode-before-fix/rollouts/0-0"]; // long, and a warning banner
      for (const url of pages) {
        await page.goto(url, SLOW);
        await expect(page.locator(TOKEN_VIEW.painted).first()).toBeVisible(SLOW);
        await expectOnlyPanelsScroll(page, [TOKEN_VIEW.scroll, TREE], height);
      }
      await page.goto(LARGE_PAGE, SLOW);
      await expect(page.locator(TOKEN_VIEW.painted).first()).toBeVisible(SLOW);
      // A wheel over the token panel scrolls the panel, not the page.
      const panel = page.locator(TOKEN_VIEW.scroll);
      const box = (await panel.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      // Wheeled again until the panel moves: a wheel that lands while its rows are still being
      // laid out scrolls nothing (CI saw it once); a wheel that scrolled the page fails below.
      await expect
        .poll(async () => {
          await page.mouse.wheel(0, 600);
          return panel.evaluate((el) => el.scrollTop);
        })
        .toBeGreaterThan(0);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await page.getByTestId("tab-conversation").click();
      await expect(page.getByTestId("conversation-message").first()).toBeVisible(SLOW);
      await expectOnlyPanelsScroll(page, ['[data-testid="conversation-scroll"]', TREE], height);
    });
  });
}

/** The page has nothing to scroll; each panel ends inside the viewport and has a height to use. */
async function expectOnlyPanelsScroll(page: Page, panels: string[], height: number) {
  const doc = await page.evaluate(() => ({
    scroll: document.documentElement.scrollHeight,
    client: document.documentElement.clientHeight,
  }));
  expect(doc.scroll, "the page's own height").toBeLessThanOrEqual(doc.client);
  for (const sel of panels) {
    const box = (await page.locator(sel).boundingBox())!;
    expect(box.y + box.height, `${sel} ends inside the viewport`).toBeLessThanOrEqual(height);
    expect(box.height, `${sel} keeps a usable height`).toBeGreaterThanOrEqual(120);
    const overflow = await page.locator(sel).evaluate((el) => getComputedStyle(el).overflowY);
    expect(overflow, `${sel} scrolls itself`).toMatch(/auto|scroll/);
  }
}

test("the inspector's controls wait for the page to take them: disabled as served, enabled once hydrated", async ({
  browser,
  page,
  baseURL,
}) => {
  // A select changed before hydration reverts to its value; a box ticked then never reaches the
  // URL: either lost a choice (components/shared/live-controls).
  const controls = {
    tokens: ["sequence-select", "jump-to-call", "low-toggle"],
    conversation: ["conversation-sequence", "conversation-shade-toggle"],
  };
  const off = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const served = await off.newPage();
  for (const [tab, ids] of Object.entries(controls)) {
    await served.goto(`${CC}/0-0?tab=${tab}`);
    for (const id of ids) await expect(served.getByTestId(id)).toBeDisabled();
  }
  await off.close();
  for (const [tab, ids] of Object.entries(controls)) {
    await page.goto(`${CC}/0-0?tab=${tab}`);
    for (const id of ids) await expect(page.getByTestId(id)).toBeEnabled(SLOW);
  }
});

test("jump to call numbers each call as the timeline does, not by its place in the sequence", async ({
  page,
}) => {
  // gym-main-v1 4-0: an empty-generation call is excluded from the chain, so the chain's third
  // call is the timeline's fourth.
  await page.goto("/runs/gym-main-v1/rollouts/4-0?tab=tokens");
  const options = page.getByTestId("jump-to-call").locator("option:not([value=''])");
  await expect(options.first()).toBeAttached({ timeout: 30_000 });
  const listed = await options.evaluateAll((os) =>
    os.map((o) => [o.getAttribute("value"), o.textContent?.split(".")[0]] as const),
  );
  expect(listed.length).toBeGreaterThan(1);
  let skipped = false;
  for (const [id, n] of listed) {
    const row = page.locator(`[data-testid="timeline-row"][data-call-id="${id}"]`);
    const number = await row.getAttribute("data-call-number");
    expect(n, `call ${id}`).toBe(number);
    if (Number(number) !== listed.findIndex(([x]) => x === id) + 1) skipped = true;
  }
  expect(skipped, "a call outside the chain shifts the numbers (the fixture's truth)").toBe(true);
});
