// The token view's DOM as the e2e specs see it, in one place: the view is being rewritten
//, so its selectors change here only. A token span carries its chain position in
// `data-pos`; a span whose window has not loaded yet is a placeholder without one.
import { expect, test, type Page } from "@playwright/test";
import { readArea, walkArea, type DomState, type TokenArea } from "./scroll-walk";

export type { DomState };

const SELECTORS = {
  scroll: '[data-testid="token-scroll"]',
  counts: '[data-testid="token-counts"]',
  /** Every token span in the DOM, painted or waiting for its window. */
  span: '[data-testid="token-scroll"] .tok',
  painted: '[data-testid="token-scroll"] .tok[data-pos]',
  pending: '[data-testid="token-scroll"] .tok.loading',
};
export const TOKEN_VIEW = {
  ...SELECTORS,
  at: (pos: number) => `${SELECTORS.painted.slice(0, -"[data-pos]".length)}[data-pos="${pos}"]`,
};

/** The token view as a scroll area of ./scroll-walk, for a chain of `total` tokens. */
const area = (total: number): TokenArea => ({
  kind: "tokens",
  scroll: SELECTORS.scroll,
  span: SELECTORS.span,
  painted: SELECTORS.painted,
  pending: SELECTORS.pending,
  total,
});

/** Every state of a walk from the top of the token view to its end (./scroll-walk). */
export const walkTokens = (page: Page, total: number): Promise<DomState[]> =>
  walkArea(page, area(total));

/** Waits until the visible area is painted with no placeholder left; returns the DOM state then. */
export async function settledDom(page: Page, total: number): Promise<DomState> {
  let state: DomState | null = null;
  const settled = async () => {
    state = await readArea(page, area(total));
    return state.pending === 0 && state.covers;
  };
  await expect
    .poll(settled, {
      message: "the visible tokens are painted",
      intervals: [10, 20, 50],
      timeout: 30_000,
    })
    .toBe(true);
  return state!;
}

/** Scrolls down by `page` times the scroll area's height, or jumps `to` a fraction of the whole. */
export async function scrollStep(
  page: Page,
  how: { page: number } | { to: number },
): Promise<void> {
  await page.locator(TOKEN_VIEW.scroll).evaluate((el, h) => {
    if ("page" in h) el.scrollTop += el.clientHeight * h.page;
    else el.scrollTop = (el.scrollHeight - el.clientHeight) * h.to;
  }, how);
}

/** Asserts the spans in the DOM never pass `maxSpans` at any state read. */
export function expectBounded(states: DomState[], maxSpans: number): void {
  const worst = Math.max(...states.map((s) => s.spans));
  test.info().annotations.push({
    type: "token spans",
    description: `at most ${worst} in the DOM over ${states.length} scroll positions (bound ${maxSpans})`,
  });
  expect(
    worst,
    `token spans in the DOM at the worst of ${states.length} scroll positions`,
  ).toBeLessThanOrEqual(maxSpans);
}

/**
 * Scrolls the token view down from the top until the token at `pos` is painted (lines mount only
 * near the visible area); returns its locator. Polls a condition, no fixed waits.
 */
export async function paintedToken(page: Page, pos: number) {
  const token = page.locator(TOKEN_VIEW.at(pos));
  await page.locator(SELECTORS.scroll).evaluate((el) => el.scrollTo(0, 0));
  await expect
    .poll(
      async () => {
        if ((await token.count()) > 0) return true;
        await page.locator(SELECTORS.scroll).evaluate((el) => {
          el.scrollTop += el.clientHeight / 2;
        });
        return false;
      },
      { message: `token ${pos} is painted`, intervals: [50, 100], timeout: 20_000 },
    )
    .toBe(true);
  await token.scrollIntoViewIfNeeded();
  return token;
}
