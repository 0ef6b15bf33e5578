// The run page's chart cards draw their plot once they come near the viewport (ChartFrame): a spec
// scrolls a card into view, as a user does, before it reads or clicks its plot.
import { expect, type Locator, type Page } from "@playwright/test";

/** Scrolls the chart card into view and waits until its plot is drawn; answers the card. */
export async function drawn(card: Locator): Promise<Locator> {
  await card.scrollIntoViewIfNeeded();
  await expect(card).toHaveAttribute("data-plot", "drawn");
  return card;
}

/** How long one card may take to draw once it is in view. */
const DRAW_MS = 15_000;

/**
 * Every chart card of the page, each scrolled into view in turn until its plot is drawn. One walk
 * in the page, frame by frame: a card draws a frame or two after it is scrolled to, and a poll from
 * the test would wait its own interval (100 ms or more) on every card.
 */
export async function drawAll(page: Page): Promise<void> {
  const waiting = await page.evaluate(async (deadlineMs) => {
    const cards = () => document.querySelectorAll<HTMLElement>("figure.chart[data-plot]");
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    for (let i = 0; i < cards().length; i++) {
      const t0 = performance.now();
      // Found again each frame: a re-render may replace the card's element.
      for (let card = cards()[i]; card?.dataset.plot !== "drawn"; card = cards()[i]) {
        if (!card) break; // the page has fewer cards now: none left to draw
        if (performance.now() - t0 > deadlineMs) return card.dataset.testid ?? `card ${i}`;
        card.scrollIntoView({ block: "nearest" });
        await frame();
      }
    }
    return null;
  }, DRAW_MS);
  expect(waiting, `chart ${waiting} drew its plot within ${DRAW_MS} ms of being in view`).toBe(
    null,
  );
}
