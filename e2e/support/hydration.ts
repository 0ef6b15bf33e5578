// Whether React has hydrated an element the server rendered. The inspector's HTML paints its
// tokens and timeline rows before the page's script runs, so a click can land on a row that has
// no handler yet and change nothing (inspector-navigation.spec flaked so on two loaded CI runs).
// React marks each hydrated DOM node with its props under a `__reactProps$<id>` key.
import { expect, type Locator } from "@playwright/test";

/** Waits until React has hydrated the element (its props are attached to the node). */
export async function expectHydrated(el: Locator, timeout = 120_000): Promise<void> {
  await expect
    .poll(
      () => el.evaluate((node) => Object.keys(node).some((k) => k.startsWith("__reactProps$"))),
      { timeout, message: "the element was never hydrated" },
    )
    .toBe(true);
}
