import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { byRolloutId, storedRollouts } from "./support/fixture-truth";
import { FIXTURE_RUNS } from "./support/paths";
import { rolloutsWithText } from "./support/text-truth";
import { TOKEN_VIEW } from "./support/token-view";

// Search across a run: the run page's "Search text" box lists exactly the rollouts whose text holds
// a phrase, each with its hit marked, and a hit opens the inspector at its call and token. Which
// rollouts hold the phrase, and where, comes from the token files decoded here (support/
// text-truth.ts), never from the server under test. A run without a tokenizer says search needs one.

const CC = "claude-code-capture-on";
/** Written by the generator into one task's generated edit (fixtures/generator/content.ts). */
const PHRASE = "LookupError";
/** In no rollout's text (checked below). */
const ABSENT = "zqxj never written";

test("searching text lists exactly the rollouts holding it, and a hit opens its token", async ({
  page,
}) => {
  const truth = rolloutsWithText(CC, PHRASE);
  const ids = [...truth.keys()].sort(byRolloutId);
  expect(ids.length, "some rollouts hold the phrase").toBeGreaterThan(0);
  expect(ids.length, "not every rollout holds it").toBeLessThan(storedRollouts(CC).length);
  expect(rolloutsWithText(CC, ABSENT).size).toBe(0);

  await page.goto(`/runs/${CC}`);
  // Every rollout's text is indexed before the answer is read as complete.
  await expect(page.getByTestId("rollouts-count")).toHaveAttribute("data-state", "complete");
  await page.getByTestId("search-text").fill(PHRASE);
  await expect(page).toHaveURL(new RegExp(`[?&]text=${PHRASE}(&|$)`));
  const rows = page.getByTestId("rollout-row");
  await expect(page.getByTestId("rollouts-count")).toHaveAttribute(
    "data-matching",
    String(ids.length),
  );
  await expect(rows).toHaveCount(ids.length);
  expect(await rows.evaluateAll((r) => r.map((el) => el.getAttribute("data-rollout-id")))).toEqual(
    ids,
  );
  for (const id of ids) {
    const hit = page.locator(`[data-testid="rollout-row"][data-rollout-id="${id}"]`);
    const want = truth.get(id)!;
    await expect(hit.locator("mark")).toHaveText(new RegExp(`^${PHRASE}$`, "i"));
    await expect(hit.getByTestId("search-hit")).toHaveAttribute("data-call", want.call);
    await expect(hit.getByTestId("search-hit")).toHaveAttribute("data-pos", String(want.pos));
    await expect(hit.getByTestId("search-hit-kind")).toHaveText(
      want.kind === "generated" ? "generated" : "tool or user input",
    );
  }

  // A hit opens the inspector with its call selected and the match's first token selected, in view.
  const first = ids[0]!;
  const want = truth.get(first)!;
  await page
    .locator(`[data-testid="rollout-row"][data-rollout-id="${first}"]`)
    .getByTestId("search-hit-link")
    .click();
  await expect(page).toHaveURL(new RegExp(`/rollouts/${first}\\?`));
  await expect(page).toHaveURL(new RegExp(`[?&]call=${want.call}(&|$)`));
  // The inspector's find opens with the match and moves from the call's first token to it.
  await expect(page.getByTestId("find-input")).toHaveValue(new RegExp(`^${PHRASE}$`, "i"));
  await expect(page).toHaveURL(new RegExp(`[?&]pos=${want.matchPos}(&|$)`));
  await expect(
    page.locator(`[data-testid="timeline-row"][data-call-id="${want.call}"]`),
  ).toHaveAttribute("aria-selected", "true");
  const token = page.locator(TOKEN_VIEW.at(want.matchPos));
  await expect(token).toHaveClass(/(^|\s)sel(\s|$)/);
  await expect(token).toBeInViewport();

  // Nothing found is said in words.
  await page.goto(`/runs/${CC}?text=${encodeURIComponent(`"${ABSENT}"`)}`);
  await expect(page.getByTestId("search-text")).toHaveValue(`"${ABSENT}"`);
  await expect(page.getByTestId("rollouts-none-match")).toContainText(
    `No rollout's text contains “${ABSENT}”.`,
  );
  // The table is its header alone below the words, not an empty box of most of the window.
  const table = page.getByTestId("rollouts-table");
  const header = (await table.getByRole("row").first().boundingBox())!;
  await expect
    .poll(async () => (await table.boundingBox())!.height)
    .toBeLessThan(header.height + 8);
});

test("a run without a tokenizer says search needs one", async ({ page }) => {
  const run = "gym-main-example";
  const manifest = JSON.parse(
    readFileSync(path.join(FIXTURE_RUNS, run, "run.json"), "utf8"),
  ) as Record<string, unknown>;
  expect(manifest.tokenizer, "the fixture names no tokenizer").toBeUndefined();
  await page.goto(`/runs/${run}`);
  await expect(page.getByTestId("search-unavailable")).toContainText(
    "Search needs the run's tokenizer",
  );
  await expect(page.getByTestId("search-text")).toBeDisabled();
});

test("an error body's hit is text, never markup, and opens the failed call's detail", async ({
  page,
}) => {
  const run = "hostile-text";
  const failed = readFileSync(
    path.join(FIXTURE_RUNS, run, "model-calls", "0-0.capture.jsonl"),
    "utf8",
  )
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { model_call_id: string; status_code: number; response: unknown })
    .filter((x) => x.status_code >= 400);
  expect(failed).toHaveLength(1);
  const body = failed[0]!;
  expect(JSON.stringify(body.response)).toContain("onerror=");
  await page.goto(`/runs/${run}?text=${encodeURIComponent("kind:error onerror=")}`);
  const hit = page.getByTestId("search-hit");
  await expect(hit).toHaveCount(1);
  await expect(hit.getByTestId("search-hit-kind")).toHaveText("error body");
  await expect(hit).toHaveAttribute("data-call", body.model_call_id);
  await expect(hit.locator("mark")).toHaveText("onerror=");
  await expect(hit).toContainText("<script>window.__xss");
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(
    await page.evaluate(() => (window as unknown as { __xss?: string }).__xss),
  ).toBeUndefined();
  await hit.getByTestId("search-hit-link").click();
  await expect(page).toHaveURL(new RegExp(`[?&]tab=call&call=${body.model_call_id}(&|$)`));
  await expect(page.getByTestId("call-detail")).toContainText(body.model_call_id);
});

test("a kind: word that names no kind is looked for as text, and the box says so", async ({
  page,
}) => {
  await page.goto(`/runs/${CC}`);
  await page.getByTestId("search-text").fill(`kind:tools ${PHRASE}`);
  await expect(page.getByTestId("search-unknown-kind")).toContainText(
    "kind:tools: not a kind (generated, input or error), looked for as text",
  );
  await page.getByTestId("search-text").fill(`kind:generated ${PHRASE}`);
  await expect(page.getByTestId("search-unknown-kind")).toHaveCount(0);
});
