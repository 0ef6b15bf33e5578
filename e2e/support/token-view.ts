// The token view's DOM as the e2e specs see it, in one place: the view is being rewritten
//, so its selectors change here only. A token span carries its chain position in
// `data-pos`; a span whose window has not loaded yet is a placeholder without one.
import { expect, test, type Page } from "@playwright/test";

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

export interface DomState {
  spans: number;
  pending: number;
  min: number;
  max: number;
  /** Painted positions form one run min..max with no gap. */
  contiguous: boolean;
  /** Painted tokens reach the top and bottom edges of the scroll area (or the chain's ends). */
  covers: boolean;
  atEnd: boolean;
}

/**
 * Runs in the page. `read`: what the token view holds right now. `walk`: from the top to the end,
 * 0.9 of the area's height a step, waiting frame by frame (up to 30 s) at each step until the
 * visible area is painted with no placeholder left; every step's state, in one evaluation, so a
 * step costs the page's own work and not the test's round trips (or why the walk stopped).
 */
async function tokenView([sel, total, mode]: readonly [
  typeof SELECTORS,
  number,
  "read" | "walk",
]): Promise<DomState | DomState[] | string> {
  const scroll = document.querySelector(sel.scroll) as HTMLElement;
  const read = (): DomState => {
    const painted = [...document.querySelectorAll<HTMLElement>(sel.painted)];
    const pos = painted.map((el) => Number(el.dataset.pos));
    const min = Math.min(...pos),
      max = Math.max(...pos);
    const box = scroll.getBoundingClientRect();
    const top = box.top + scroll.clientTop,
      bottom = top + scroll.clientHeight;
    const first = painted[pos.indexOf(min)]?.getBoundingClientRect();
    const last = painted[pos.indexOf(max)]?.getBoundingClientRect();
    const covers =
      painted.length > 0 &&
      !!first &&
      !!last &&
      (min === 0 || first.top <= top + 1) &&
      (max === total - 1 || last.bottom >= bottom - 1);
    return {
      spans: document.querySelectorAll(sel.span).length,
      pending: document.querySelectorAll(sel.pending).length,
      min,
      max,
      contiguous: new Set(pos).size === max - min + 1 && pos.length === max - min + 1,
      covers,
      atEnd: scroll.scrollTop + scroll.clientHeight >= scroll.scrollHeight - 1,
    };
  };
  if (mode === "read") return read();
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const states: DomState[] = [];
  scroll.scrollTo(0, 0);
  for (let step = 0; step < 5_000; step++) {
    const t0 = performance.now();
    let state = read();
    while (!(state.pending === 0 && state.covers)) {
      if (performance.now() - t0 > 30_000)
        return `step ${step} at ${scroll.scrollTop}px: the visible tokens were not painted in 30 s (${JSON.stringify(state)})`;
      await frame();
      state = read();
    }
    states.push(state);
    if (state.atEnd) return states;
    scroll.scrollTop += scroll.clientHeight * 0.9;
    await frame();
  }
  return "5,000 scroll steps without reaching the end";
}

/** Every state of a walk from the top of the token view to its end (tokenView's `walk`). */
export async function walkTokens(page: Page, total: number): Promise<DomState[]> {
  const states = await page.evaluate(tokenView, [SELECTORS, total, "walk"] as const);
  if (typeof states === "string") throw new Error(states);
  return states as DomState[];
}

/** Waits until the visible area is painted with no placeholder left; returns the DOM state then. */
export async function settledDom(page: Page, total: number): Promise<DomState> {
  let state: DomState | null = null;
  const settled = async () => {
    state = (await page.evaluate(tokenView, [SELECTORS, total, "read"] as const)) as DomState;
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
