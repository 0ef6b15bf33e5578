// The run page's chart cards draw their plot once they come near the viewport (ChartFrame): a spec
// scrolls a card into view, as a user does, before it reads or clicks its plot.
import { expect, type Locator, type Page } from "@playwright/test";

/** Scrolls the chart card into view and waits until its plot is drawn; answers the card. */
export async function drawn(card: Locator): Promise<Locator> {
  await card.scrollIntoViewIfNeeded();
  await expect(card).toHaveAttribute("data-plot", "drawn");
  return card;
}

/** Every chart card of the page, each scrolled into view in turn until its plot is drawn. */
export async function drawAll(page: Page): Promise<void> {
  const cards = page.locator("figure.chart[data-plot]");
  const n = await cards.count();
  for (let i = 0; i < n; i++) await drawn(cards.nth(i));
}
