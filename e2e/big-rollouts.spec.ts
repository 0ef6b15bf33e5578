import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import {
  chainFacts,
  entryLengths,
  fmtInt,
  heaviestChain,
  linkByPrefix,
  readEntries,
  readLastEntry,
} from "./support/fixture-truth";
import { E2E_RUNS, GENERATED_ROLLOUT, LARGE_RUN, LONG_RUN } from "./support/paths";
import { walkArea, type ListState } from "./support/scroll-walk";
import {
  settledDom,
  walkTokens,
  scrollStep,
  expectBounded,
  TOKEN_VIEW,
  type DomState,
} from "./support/token-view";

// Generated rollouts in the e2e runs root (e2e/support/prepare-runs.ts), checked against their files.
//
// The bound on token spans: at 1280×800 the token scroll area is 60vh = 480 px high; a screen of
// it shows a few hundred tokens (20 lines of 20 today; text that wraps at the panel edge fits
// ~35 short tokens on a line). Rendering one screen of overscan on each side stays well under
// 2,000, while mounting a whole loaded 2,000-token window, or the chain, passes it: 2,000 is 3.6%
// of the long session's chain and 1% of the 200k-token one.
const MAX_TOKEN_SPANS = 2_000;
test.use({ viewport: { width: 1280, height: 800 } });

test("the long session's token view stays virtualised while every token is scrolled past", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const entries = readEntries(LONG_RUN, GENERATED_ROLLOUT, E2E_RUNS);
  const chain = chainFacts(heaviestChain(linkByPrefix(entries, [])));
  expect(
    chain.length,
    "the generated chain is long enough to prove virtualisation",
  ).toBeGreaterThanOrEqual(50_000);
  expect(chain.length).toBe(
    entries.at(-1)!.prompt_token_ids.length + entries.at(-1)!.generation_token_ids.length,
  ); // one linear chain

  await page.goto(`/runs/${LONG_RUN}/rollouts/${GENERATED_ROLLOUT}`);
  await expect(page.locator(TOKEN_VIEW.counts)).toContainText(
    `${fmtInt(chain.length)} tokens · ${fmtInt(chain.generated)} generated`,
  );
  const states = await walkTokens(page, chain.length);
  for (const s of states)
    expect(s.contiguous, `painted positions ${s.min}..${s.max} have a gap`).toBe(true);
  expectBounded(states, MAX_TOKEN_SPANS);
  // Each step paints at least the visible area and moves less than one screen: together they paint every token.
  let reached = -1;
  for (const s of states) {
    expect(s.min, `a gap before position ${s.min}`).toBeLessThanOrEqual(reached + 1);
    reached = Math.max(reached, s.max);
  }
  expect(reached).toBe(chain.length - 1);
  await expect(page.locator(TOKEN_VIEW.at(chain.length - 1))).toBeVisible();
  await expect(page.locator(TOKEN_VIEW.at(chain.length - 1))).toHaveAttribute("data-mask", "1"); // the final <|im_end|> is generated
});

test("the 500-call, 200k-token rollout: jumps end to end with the DOM bounded and the last token reached", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const last = readLastEntry(
    path.join(E2E_RUNS, LARGE_RUN, "tokens", `${GENERATED_ROLLOUT}.tokens.jsonl`),
  );
  const total = last.prompt_token_ids.length + last.generation_token_ids.length; // append-only: the last call ends the one chain
  expect(total, "about 200k tokens").toBeGreaterThan(190_000);

  await page.goto(`/runs/${LARGE_RUN}/rollouts/${GENERATED_ROLLOUT}`, { timeout: 120_000 });
  await expect(page.locator(TOKEN_VIEW.counts)).toContainText(`${fmtInt(total)} tokens`, {
    timeout: 120_000,
  });
  const states: DomState[] = [];
  const jumps = 24;
  for (let i = 0; i <= jumps; i++) {
    await scrollStep(page, { to: i / jumps });
    states.push(await settledDom(page, total));
  }
  // Lines replace the end's placeholders at their measured height, which can move the end further
  // down: jump again, as a user would, until the view stays at its end (a few times at most).
  for (let again = 0; !states.at(-1)!.atEnd; again++) {
    expect(again, "jumps to the end before the view stays there").toBeLessThan(5);
    await scrollStep(page, { to: 1 });
    states.push(await settledDom(page, total));
  }
  expectBounded(states, MAX_TOKEN_SPANS);
  expect(states.at(-1)!.atEnd).toBe(true);
  expect(states.at(-1)!.max).toBe(total - 1);
  await expect(page.locator(TOKEN_VIEW.at(total - 1))).toBeVisible();
});

const LARGE_STORE = path.join(E2E_RUNS, LARGE_RUN, "tokens", `${GENERATED_ROLLOUT}.tokens.jsonl`);
const LARGE_PAGE = `/runs/${LARGE_RUN}/rollouts/${GENERATED_ROLLOUT}`;
/**
 * Rows of a virtual list in the DOM at once. The timeline panel shows about 20 rows of 28 px and
 * mounts a dozen more on each side; the conversation shows a few messages and four more on each
 * side. Mounting the whole list (500 calls, 1,000 conversation items) passes this.
 */
const MAX_LIST_ROWS = 100;

/** Scrolls a virtual list from top to bottom (./support/scroll-walk); the settled state at each step. */
const scrollThrough = (page: Page, [scroll, row, ready]: [string, string, string]) =>
  walkArea(page, { kind: "list", scroll, row, ready });

function expectListBounded(states: ListState[], what: string): void {
  const rows = Math.max(...states.map((s) => s.rows));
  const elements = Math.max(...states.map((s) => s.elements));
  test.info().annotations.push({
    type: what,
    description: `at most ${rows} rows, ${elements} elements over ${states.length} scroll positions (bound ${MAX_LIST_ROWS} rows)`,
  });
  expect(rows, `${what}: rows in the DOM at the worst scroll position`).toBeLessThanOrEqual(
    MAX_LIST_ROWS,
  );
}

test("the 500-call rollout's timeline: every row fits the panel, all 500 scrolled past with the DOM bounded", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const calls = (await entryLengths(LARGE_STORE)).sort((a, b) => a.created_at - b.created_at);
  expect(calls).toHaveLength(500);
  await page.goto(LARGE_PAGE, { timeout: 120_000 });
  const tree = '[data-testid="call-timeline"] [role="tree"]';
  await expect(page.getByTestId("timeline-row").first()).toBeVisible({ timeout: 120_000 });
  const states = await scrollThrough(page, [
    tree,
    '[data-testid="timeline-row"]',
    "[data-call-id]",
  ]);
  expectListBounded(states, "timeline rows");
  const overflowing = states.flatMap((s) => s.items.filter((i) => i.overflow).map((i) => i.key));
  expect(overflowing, "rows whose content is wider than the row").toEqual([]);
  const shown = new Set(states.flatMap((s) => s.items.filter((i) => i.inView).map((i) => i.key)));
  expect(shown.size, "call numbers seen in view").toBe(calls.length);
  expect(shown).toEqual(new Set(calls.map((_, i) => String(i + 1))));
  // The panel itself never scrolls sideways, and the last row is the last call in time.
  const panel = page.locator(tree);
  expect(await panel.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await expect(
    page.locator(`[data-testid="timeline-row"][data-call-number="${calls.length}"]`),
  ).toHaveAttribute("data-call-id", calls.at(-1)!.id);
});

test("the 500-call rollout's conversation scrolls end to end with the DOM bounded", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const calls = await entryLengths(LARGE_STORE);
  // One append-only chain with no chat template in its random ids: the conversation is its
  // segments, each call's new prompt tokens (the first call's whole prompt) and its generation.
  let cum = 0;
  let segments = 0;
  for (const c of calls) {
    expect(c.prompt, "each prompt extends the one before").toBeGreaterThanOrEqual(cum);
    segments += Number(c.prompt > cum) + Number(c.generated > 0);
    cum = c.prompt + c.generated;
  }
  await page.goto(`${LARGE_PAGE}?tab=conversation`, { timeout: 120_000 });
  await expect(page.getByTestId("conversation-counts")).toContainText(
    `${fmtInt(segments)} items · ${fmtInt(cum)} tokens`,
    { timeout: 120_000 },
  );
  const scroll = '[data-testid="conversation-scroll"]';
  const ready = '[data-testid="conversation-message"]';
  const states = await scrollThrough(page, [scroll, `${scroll} [data-index]`, ready]);
  expectListBounded(states, "conversation items");
  const seen = new Set(states.flatMap((s) => s.items.filter((i) => i.inView).map((i) => i.key)));
  expect(seen.size, "items seen in view").toBe(segments);
  const last = page.locator(`${scroll} [data-index="${segments - 1}"]`);
  await expect(last).toBeVisible();
  // The last item is the last call's generation.
  await expect(last.getByTestId("conversation-message")).toHaveAttribute("data-role", "assistant");
  await expect(last).toContainText(`call ${calls.at(-1)!.id.slice(0, 8)}`);
});
