import type { ChildProcess } from "node:child_process";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { scratchDir, startNext, stopNext } from "./support/server";

// A run being written while the pages are open: its own server on a temp runs root. The pages
// poll on timers; the test drives the page's clock forward while it waits for each condition,
// so it neither sleeps nor depends on how long those timers are.
const PORT = 3126;
let url: string;
let server: ChildProcess | undefined;
let tokens: string;
let [root, cache] = ["", ""];

const rec = (rollout: string, id: string, prompt: number[], gen: number[], t: number) =>
  JSON.stringify({
    rollout_id: rollout,
    model_call_id: id,
    model: "policy",
    prompt_token_ids: prompt,
    generation_token_ids: gen,
    generation_log_probs: gen.map(() => -0.1),
    created_at: t,
  }) + "\n";

test.beforeAll(async () => {
  [root, cache] = [scratchDir("rollout-lens-live-"), scratchDir("rollout-lens-live-cache-")];
  tokens = path.join(root, "live", "tokens");
  mkdirSync(tokens, { recursive: true });
  writeFileSync(path.join(tokens, "0-0.tokens.jsonl"), rec("0-0", "call-a", [1, 2, 3], [4, 5], 1));
  const started = await startNext(PORT, {
    ROLLOUT_LENS_RUNS: root,
    ROLLOUT_LENS_CACHE: cache,
  });
  [url, server] = [started.url, started.child];
});
test.afterAll(() => stopNext(server, root, cache));

/** Waits until `condition` holds, advancing the page's clock a second per check so its polling timers fire. */
async function until(
  page: Page,
  condition: () => Promise<boolean>,
  message: string,
): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.clock.fastForward(1_000);
        return condition();
      },
      { message, timeout: 20_000 },
    )
    .toBe(true);
}
const count = (l: Locator, n: number) => async () => (await l.count()) === n;
const text = (l: Locator, t: string) => async () =>
  (await l.count()) > 0 ? (await l.first().innerText()).includes(t) : false;

test("new calls and rollouts appear without a restart; a half-written line is never shown", async ({
  page,
}) => {
  await page.clock.install();
  await page.goto(`${url}/runs/live/rollouts/0-0`);
  await expect(page.getByTestId("timeline-row")).toHaveCount(1);
  // The writer appends half a line: it stays invisible (a torn tail), and the writer is never blocked.
  const next = rec("0-0", "call-b", [1, 2, 3, 4, 5, 6], [7, 8], 2);
  appendFileSync(path.join(tokens, "0-0.tokens.jsonl"), next.slice(0, 40));
  // The torn tail is a warning in the banner (a write cut off; left out of the build).
  await until(
    page,
    text(page.getByTestId("verdict-sentences"), "ends in a partial line"),
    "the torn line is reported",
  );
  await expect(page.getByTestId("verdict-bar")).toHaveAttribute(
    "data-severity",
    "trained_with_warnings",
  );
  await expect(page.getByTestId("timeline-row")).toHaveCount(1);
  appendFileSync(path.join(tokens, "0-0.tokens.jsonl"), next.slice(40));
  await until(
    page,
    count(page.locator('[data-testid="timeline-row"][data-call-id="call-b"]'), 1),
    "the completed call appears",
  );
  await expect(page.getByTestId("verdict-sentences")).not.toContainText("partial line");
  await expect(page.getByTestId("verdict-bar")).toHaveAttribute("data-severity", "trained");
  await expect(page.getByTestId("read-issues")).toHaveCount(0);
  await expect(page.getByTestId("token-counts")).toContainText("8 tokens");

  await page.goto(`${url}/runs/live`);
  // The grown rollout may still be summarised again: the page polls on its (installed) clock.
  await until(
    page,
    text(page.getByTestId("rollouts-count"), "1 of 1 rollout"),
    "the run's one rollout is counted",
  );
  await expect(page.getByTestId("rollouts-count")).toHaveText("1 of 1 rollout");
  // The signal ledger: 0-0's two generations of two tokens each, delivered on its main chain.
  const delivered = page
    .getByTestId("signal-ledger")
    .locator('[data-key="delivered"] strong')
    .first();
  await until(page, text(delivered, "4"), "the ledger counts 0-0's generated tokens");
  writeFileSync(path.join(tokens, "1-0.tokens.jsonl"), rec("1-0", "x", [9], [10], 3));
  await until(
    page,
    text(page.getByTestId("rollouts-count"), "2 of 2 rollouts"),
    "the new rollout is counted",
  );
  await expect(page.locator('[data-rollout-id="1-0"]')).toBeVisible();
  await until(page, text(delivered, "5"), "the ledger counts 1-0's generated token too");
});
