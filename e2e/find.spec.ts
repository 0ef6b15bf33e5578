// Find within the 500-call, 200k-token rollout: Ctrl-F, the planted phrase's count, previous from
// the first match wraps to the last (in the last call's generation), which the token view selects
// and shows; on the conversation tab a match selects the message holding it. Expected matches are
// the generator's planted truth (fixtures/generator/find-planted), not the server's answer.
import { expect, test } from "@playwright/test";
import { FIND_QUERY, plantedMatches } from "../fixtures/generator/find-planted";
import { GENERATED_ROLLOUT, LARGE_RUN } from "./support/paths";
import { TOKEN_VIEW } from "./support/token-view";

test.use({ viewport: { width: 1280, height: 800 } });

test("find on the 500-call rollout counts the planted phrase and reaches its last match", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const truth = plantedMatches(FIND_QUERY);
  const [first, last, middle] = [truth[0]!, truth.at(-1)!, truth.at(-2)!];
  await page.goto(`/runs/${LARGE_RUN}/rollouts/${GENERATED_ROLLOUT}`, { timeout: 90_000 });
  await expect(page.locator(TOKEN_VIEW.counts)).toContainText("tokens", { timeout: 90_000 });

  await page.locator(TOKEN_VIEW.scroll).click();
  await page.keyboard.press("Control+f");
  const input = page.getByTestId("find-input");
  await expect(input).toBeFocused();
  await input.fill(FIND_QUERY.toUpperCase());
  const count = page.getByTestId("find-count");
  await expect(count).toHaveText(`1 of ${truth.length}`, { timeout: 20_000 });
  await expect(page.locator(`${TOKEN_VIEW.at(first.start)}.sel`)).toBeVisible();
  expect(new URL(page.url()).searchParams.get("find")).toBe(FIND_QUERY.toUpperCase());

  await page.getByTestId("find-prev").click();
  await expect(count).toHaveText(`${truth.length} of ${truth.length}`);
  await expect
    .poll(() => new URL(page.url()).searchParams.get("pos"), { timeout: 20_000 })
    .toBe(String(last.start));
  const selected = page.locator(`${TOKEN_VIEW.at(last.start)}.sel`);
  await expect(selected).toBeInViewport({ timeout: 20_000 });
  const marked = page.locator(`${TOKEN_VIEW.painted}[data-found]`);
  await expect
    .poll(() => marked.evaluateAll((els) => els.map((el) => Number(el.dataset.pos))), {
      timeout: 20_000,
    })
    .toEqual(Array.from({ length: last.end - last.start }, (_, k) => last.start + k));

  // The conversation: a match selects the message holding its first token and scrolls to it.
  await page.getByTestId("tab-conversation").click();
  await page.getByTestId("find-input").press("Shift+Enter");
  await expect(count).toHaveText(`${truth.length - 1} of ${truth.length}`);
  const message = page.locator('[data-testid="conversation-message"][aria-current="true"]');
  // The count moves first; the selection follows it to the next message (CI once read the message
  // of the match before, still selected): wait for the message that holds the match.
  const range = async () => {
    const [, from, to] = /tokens (\d+)–(\d+)/.exec((await message.textContent()) ?? "") ?? [];
    return `${from}–${to}`;
  };
  const holds = (r: string) => {
    const [from, to] = r.split("–").map(Number);
    return from! <= middle.start && to! > middle.start;
  };
  await expect
    .poll(async () => holds(await range()), {
      message: `the selected message holds token ${middle.start}`,
      timeout: 20_000,
    })
    .toBe(true);
  await expect(message).toBeInViewport({ timeout: 20_000 });
});
