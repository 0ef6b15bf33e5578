// The rollout inspector on the sample runs: the severity banner, the call timeline, the
// conversation tab and the words of masked rollouts. Every expectation comes from the fixture files
// on disk or the generator's stated facts (fixtures/generator/*.ts), never from the API under test.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";

const RUNS = path.join(process.cwd(), "fixtures", "runs");
type Json = Record<string, unknown>;

const jsonl = (file: string): Json[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Json);

/** Rollout ids of a run's token store, from its file names. */
const rolloutIds = (run: string): string[] =>
  readdirSync(path.join(RUNS, run, "tokens"))
    .filter((f) => f.endsWith(".tokens.jsonl"))
    .map((f) => f.slice(0, -".tokens.jsonl".length))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));

/** Ids of the run's records that carry `mask_sample: true` (the consumer masked them). */
const maskedRecords = (run: string): string[] =>
  jsonl(path.join(RUNS, run, "rollouts.jsonl"))
    .filter((r) => r.mask_sample === true)
    .map((r) => `${String(r._ng_task_index)}-${String(r._ng_rollout_index)}`);

/** A FastAPI `loc` as a reader writes it: `body` dropped, keys dotted, indices bracketed. */
const locText = (loc: unknown[]): string =>
  loc
    .slice(loc[0] === "body" ? 1 : 0)
    .map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join("");

const inspector = (run: string, rollout: string, query = "") =>
  `/runs/${run}/rollouts/${rollout}${query ? `?${query}` : ""}`;

const banner = (page: Page) => page.getByTestId("verdict-bar");
const TRAINED_WORD = /\btrained\b/i;

test.describe("opencode-before-fix: every rollout is cut short by a 422", () => {
  const run = "opencode-before-fix";
  for (const id of rolloutIds(run)) {
    test(`${id} warns with the status, the error type and where it points`, async ({ page }) => {
      const exchanges = jsonl(path.join(RUNS, run, "model-calls", `${id}.capture.jsonl`));
      const failed = exchanges.filter(
        (x) => typeof x.status_code === "number" && x.status_code >= 400,
      );
      expect(failed).toHaveLength(1);
      const x = failed[0] as {
        status_code: number;
        model_call_id: string;
        response: { detail: Array<{ type: string; loc: unknown[] }> };
      };
      const detail = x.response.detail[0] as { type: string; loc: unknown[] };
      const entries = jsonl(path.join(RUNS, run, "tokens", `${id}.tokens.jsonl`));
      const callNumber = entries.length + 1; // the failed call came after every captured one
      await page.goto(inspector(run, id));
      await expect(banner(page)).toHaveAttribute("data-severity", "trained_with_warnings");
      await expect(page.getByTestId("verdict-sentence").first()).toHaveText(
        `Trained on, but cut short: call ${callNumber} got HTTP ${x.status_code} ${detail.type} at ${locText(detail.loc)}, and the agent stopped.`,
      );
      await expect(page.getByTestId("verdict-label")).toHaveClass(/sev-warn/);
      const row = page.locator(`[data-testid="timeline-row"][data-call-id="${x.model_call_id}"]`);
      await expect(row).toHaveAttribute("data-role", "failed");
      await expect(row).toHaveAttribute("data-call-number", String(callNumber));
      await expect(row).toContainText(`HTTP ${x.status_code}`);
    });
  }
});

test.describe("opencode-after-fix: no warning", () => {
  const run = "opencode-after-fix";
  for (const id of rolloutIds(run)) {
    test(`${id} is trained on, with no reason and no failed row`, async ({ page }) => {
      const exchanges = jsonl(path.join(RUNS, run, "model-calls", `${id}.capture.jsonl`));
      expect(exchanges.every((x) => x.status_code === 200)).toBe(true);
      await page.goto(inspector(run, id));
      await expect(banner(page)).toHaveAttribute("data-severity", "trained");
      await expect(page.getByTestId("verdict-sentence")).toHaveText(["Trained on."]);
      await expect(page.getByTestId("verdict-label")).toHaveClass(/sev-trained/);
      await expect(page.locator('[data-testid="timeline-row"][data-role="failed"]')).toHaveCount(0);
    });
  }
});

test("the side-model rollout warns that another model is the main chain", async ({
  page,
  request,
}) => {
  // fixtures/generator/claude-code.ts: rollout 6 is `side_model_heavier`; the policy is
  // claude-opus-4-1 and a claude-sonnet-4-5 running log out-generates it.
  const [policy, side] = ["claude-opus-4-1", "claude-sonnet-4-5"];
  const run = "claude-code-capture-on";
  const entries = jsonl(path.join(RUNS, run, "tokens", "6-0.tokens.jsonl"));
  const policyCalls = entries
    .filter((e) => e.requested_model === policy)
    .map((e) => String(e.model_call_id));
  expect(policyCalls.length).toBeGreaterThan(0);
  // The run's policy is a vote over the whole run: let the summary index finish first.
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/api/runs/${run}/rollouts`)).json()) as {
            progress: { running: boolean };
          }
        ).progress.running,
      { timeout: 20_000 },
    )
    .toBe(false);
  await page.goto(inspector(run, "6-0"));
  await expect(banner(page)).toHaveAttribute("data-severity", "trained_with_warnings");
  await expect(page.getByTestId("verdict-sentence").first()).toHaveText(
    `Trained on, but another model as main chain: the main chain comes from ${side}, not the run's policy model ${policy}; a side model may have out-generated the policy.`,
  );
  // The diff page's verdict of the same rollout says so too.
  await page.goto(`/diff?a=${run}/6-0&b=${run}/0-0`);
  const a = page.getByTestId("diff-side-a");
  await expect(a.getByTestId("diff-verdict")).toHaveClass(/sev-warn/);
  await expect(a.getByTestId("diff-verdict-sentence").first()).toContainText(
    `the main chain comes from ${side}, not the run's policy model ${policy}`,
  );
  await expect(a.locator("code").first()).toHaveText(side);
  await page.goto(inspector(run, "6-0"));
  // The policy's own calls are the side calls of this rollout, each with the self-calibration reason.
  const sideRows = page.locator('[data-testid="timeline-row"][data-role="side_call"]');
  await expect(sideRows).toHaveCount(policyCalls.length);
  await expect(
    page.locator(`[data-testid="timeline-row"][data-call-id="${policyCalls[0]}"]`),
  ).toHaveAttribute("data-role", "side_call");
});

test("the dangling-intent rollout is masked and shows the intent as a timeline row", async ({
  page,
}) => {
  const dir = path.join(RUNS, "gym-main-v1", "tokens");
  const intents = readFileSync(path.join(dir, "3-0.tokens.intents"), "utf8")
    .split("\n")
    .filter(Boolean);
  const recorded = new Set(jsonl(path.join(dir, "3-0.tokens.jsonl")).map((e) => e.model_call_id));
  const dangling = intents.filter((id) => !recorded.has(id));
  expect(dangling).toHaveLength(1);
  await page.goto(inspector("gym-main-v1", "3-0"));
  await expect(banner(page)).toHaveAttribute("data-severity", "masked");
  await expect(page.getByTestId("verdict-sentences")).toContainText(
    `${dangling[0]} never got a token entry`,
  );
  // Its delivered fraction counts only the calls written: it says the missing one is not in it.
  await expect(page.getByTestId("verdict-delivered-of")).toContainText(
    "not counting 1 call whose intent got no token entry",
  );
  // Masked: its main chain's share is delivered, yet none of it trains, said beside the share.
  await expect(page.getByTestId("verdict-delivered-of")).toContainText(
    "; masked, so none of them is trained",
  );
  const row = page.locator(`[data-testid="timeline-row"][data-call-id="${dangling[0]}"]`);
  await expect(row).toHaveAttribute("data-role", "intent");
  await row.click();
  await expect(page).toHaveURL(new RegExp(`call=${dangling[0]}`));
  await expect(page.getByTestId("intent-detail")).toBeVisible();
});

const MASKED: Array<[run: string, rollout: string]> = [
  ...maskedRecords("claude-code-capture-on").map((id): [string, string] => [
    "claude-code-capture-on",
    id,
  ]),
  ...maskedRecords("gym-main-v1").map((id): [string, string] => ["gym-main-v1", id]),
];

test.describe("a masked rollout never says trained", () => {
  test("the fixtures hold masked rollouts to check", () => {
    expect(MASKED.length).toBeGreaterThanOrEqual(5);
  });
  for (const [run, id] of MASKED) {
    test(`${run} ${id}: banner, pill, segment headers and legends`, async ({ page }) => {
      await page.goto(inspector(run, id));
      await expect(banner(page)).toHaveAttribute("data-severity", "masked");
      await expect(page.getByTestId("verdict-label")).toHaveClass(/sev-masked/);
      await expect(page.getByTestId("verdict-label")).not.toHaveText(TRAINED_WORD);
      await expect(page.getByTestId("verdict-sentences")).not.toHaveText(TRAINED_WORD);
      // Every one of these has captured calls: the token tab opens with its segment headers.
      const headers = page.getByTestId("segment-header");
      await expect(headers.first()).toBeVisible();
      for (const text of await headers.allTextContents()) expect(text).not.toMatch(TRAINED_WORD);
      await page.getByTestId("tab-conversation").click();
      await expect(page).toHaveURL(/tab=conversation/);
      await expect(page.getByTestId("conversation-legend")).not.toHaveText(TRAINED_WORD);
    });
  }
});

test("timeline rows never overflow the panel", async ({ page }) => {
  // Rollout 1 is the sub-agent branch (depth > 0), 0 the compaction (two roots).
  for (const id of ["0-0", "1-0", "2-0"]) {
    await page.goto(inspector("claude-code-capture-on", id));
    const rows = page.getByTestId("timeline-row");
    await expect(rows.first()).toBeVisible();
    const overflow = await rows.evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.getAttribute("data-call-id")),
    );
    expect(overflow).toEqual([]);
  }
});

test("the conversation tab shows the chain as messages, and the state stays in the URL", async ({
  page,
}) => {
  // fixtures/generator/opencode.ts: task 0 asks this question and the agent runs one bash command.
  const question = "How many Python files are under src/?";
  await page.goto(inspector("opencode-after-fix", "0-0", "tab=conversation"));
  const messages = page.getByTestId("conversation-message");
  await expect(messages.first()).toBeVisible();
  await expect(
    page.locator('[data-testid="conversation-message"][data-role="user"]').first(),
  ).toContainText(question);
  await expect(
    page.locator('[data-testid="conversation-message"][data-role="assistant"]').first(),
  ).toBeVisible();
  await messages.nth(1).click();
  await expect(page).toHaveURL(/message=1/);
  // The box follows the URL: click, then wait for the state to come back.
  await page.getByTestId("conversation-shade-toggle").click();
  await expect(page.getByTestId("conversation-shade-toggle")).toBeChecked();
  await expect(page).toHaveURL(/shade=1/);
  // Switching profile keeps the tab, the message and the shading.
  await page.getByTestId("profile-gym-v1").click();
  await expect(page).toHaveURL(/profile=gym-v1/);
  await expect(page).toHaveURL(/tab=conversation/);
  await expect(page).toHaveURL(/message=1/);
  await expect(page).toHaveURL(/shade=1/);
  await expect(page.getByTestId("conversation-message").first()).toBeVisible();
});

test("selecting a timeline row puts the call in the URL; the keys move it", async ({ page }) => {
  await page.goto(inspector("opencode-after-fix", "0-0"));
  const rows = page.getByTestId("timeline-row");
  await expect(rows).toHaveCount(2);
  const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-call-id")));
  await rows.first().click();
  await expect(page).toHaveURL(new RegExp(`call=${ids[0]}`));
  await page.locator('[data-testid="call-timeline"] [role="tree"]').focus();
  await page.keyboard.press("ArrowDown");
  await expect(page).toHaveURL(new RegExp(`call=${ids[1]}`));
});
