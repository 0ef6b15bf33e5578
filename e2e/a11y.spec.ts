import AxeBuilder from "@axe-core/playwright";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { drawAll } from "./support/charts";
import { GENERATED_ROLLOUT, LARGE_RUN } from "./support/paths";
import { TOKEN_VIEW } from "./support/token-view";

// WCAG AA contrast (4.5:1) checked by axe-core's color-contrast rule: the
// inspector with the call timeline and the token view (generated and re-fed tokens), the
// conversation tab, and the run page with its severity pills and charts, in both themes; then the
// top bar's remembered choice against the opposite system preference. Last, every other WCAG 2.1
// A and AA rule axe checks, on each kind of page.

/** No violation of the rules `axe` runs on the page, each named with its element. */
async function expectNoViolations(axe: AxeBuilder, what: string, where: string): Promise<void> {
  const { violations } = await axe.analyze();
  const found = violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}: ${n.failureSummary ?? v.help}`),
  );
  expect(found, `${found.length} ${what} failures on ${where}`).toEqual([]);
}

const expectNoContrastViolations = (page: Page, where: string) =>
  expectNoViolations(new AxeBuilder({ page }).withRules(["color-contrast"]), "contrast", where);

/** The inspector's timeline and the token view, both painted. */
async function tokensShown(page: Page): Promise<void> {
  await expect(page.getByTestId("timeline-row").first()).toBeVisible({ timeout: 120_000 });
  await expect(page.locator(TOKEN_VIEW.painted).first()).toBeVisible({ timeout: 120_000 });
  await expect(page.locator(TOKEN_VIEW.pending)).toHaveCount(0);
  await expect(page.getByTestId("token-placeholder")).toHaveCount(0);
}

/** The conversation tab with its first messages drawn, shading on (the legend shows its bins). */
async function conversationShown(page: Page): Promise<void> {
  await page.getByTestId("tab-conversation").click();
  await expect(page.getByTestId("conversation-message").first()).toBeVisible({ timeout: 60_000 });
  // The box follows the URL (shade=1): click, then wait for the state to come back.
  await page.getByTestId("conversation-shade-toggle").click();
  await expect(page.getByTestId("conversation-shade-toggle")).toBeChecked();
  await expect(page.getByTestId("conversation-shaded").first()).toBeVisible();
}

type Scheme = "light" | "dark";

/** Which theme the page must be in: html[data-theme] when chosen, else the system's. */
async function expectTheme(page: Page, theme: Scheme, chosen: boolean): Promise<void> {
  const html = page.locator("html");
  if (chosen) await expect(html).toHaveAttribute("data-theme", theme);
  else await expect(html).not.toHaveAttribute("data-theme", /./);
  // --bg of app/globals.css, light and dark: the page really is in that theme.
  await expect(page.locator("body")).toHaveCSS(
    "background-color",
    theme === "light" ? "rgb(246, 247, 249)" : "rgb(15, 17, 21)",
  );
}

async function chooseTheme(context: BrowserContext, baseURL: string, theme: Scheme) {
  await context.addCookies([{ name: "rl-theme", value: theme, url: baseURL, sameSite: "Lax" }]);
}

const opposite = (s: Scheme): Scheme => (s === "light" ? "dark" : "light");

// Contrast in both themes as the system's preference (prefers-color-scheme).
for (const theme of ["dark", "light"] as const) {
  test.describe(`${theme} theme from the system`, () => {
    test.use({ colorScheme: theme });

    for (const [run, rollout] of [
      ["claude-code-capture-on", "0-0"], // compaction: two roots, side calls, trained
      ["claude-code-capture-on", "3-0"], // masked: the retry rows, the masked banner
      ["opencode-before-fix", "0-0"], // cut short: the warning banner and a failed row
    ]) {
      test(`the inspector meets AA contrast: ${run} ${rollout}, tokens then conversation`, async ({
        page,
      }) => {
        await page.goto(`/runs/${run}/rollouts/${rollout}`);
        await expectTheme(page, theme, false);
        await tokensShown(page);
        // A low-probability filter shows the quiet and the matching tokens too.
        await page.getByTestId("low-toggle").click();
        await expect(page.getByTestId("low-toggle")).toBeChecked();
        await expect(page.getByTestId("low-count")).toBeVisible();
        await expectNoContrastViolations(page, `${run} ${rollout} tokens`);
        await conversationShown(page);
        await expectNoContrastViolations(page, `${run} ${rollout} conversation`);
      });
    }

    test("the 500-call, 200k-token rollout meets AA contrast: timeline, tokens, conversation", async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await page.goto(`/runs/${LARGE_RUN}/rollouts/${GENERATED_ROLLOUT}`, { timeout: 120_000 });
      await expectTheme(page, theme, false);
      await tokensShown(page);
      await expectNoContrastViolations(page, "the 500-call rollout's tokens");
      await conversationShown(page);
      await expectNoContrastViolations(page, "the 500-call rollout's conversation");
    });

    test("the run page meets AA contrast: severity pills, alerts, charts and the table", async ({
      page,
    }) => {
      for (const run of ["opencode-before-fix", "claude-code-capture-on", "gym-main-example"]) {
        await page.goto(`/runs/${run}`);
        await expectTheme(page, theme, false);
        await expect(page.getByTestId("rollout-row").first()).toBeVisible();
        await drawAll(page); // the charts below the first screen too
        await expectNoContrastViolations(page, `the ${run} run page`);
      }
      await page.goto("/");
      await expect(page.getByTestId("runs-row").first()).toBeVisible();
      await expectNoContrastViolations(page, "the home page");
    });
  });
}

// A theme chosen in the top bar (the rl-theme cookie) is the system's theme of the same name: every
// colour is a light-dark() property and the root's color-scheme alone picks one (lib/view/
// palette.test fails on any other rule or script that asks the system). So the contrast checks
// above run once per theme, and under the cookie, against the other system preference, the pages
// only have to be in the chosen theme.
for (const theme of ["dark", "light"] as const) {
  const system = opposite(theme);
  test.describe(`${theme} theme chosen (system ${system})`, () => {
    test.use({ colorScheme: system });
    test("home, a run and a rollout are in the chosen theme", async ({
      context,
      baseURL,
      page,
    }) => {
      await chooseTheme(context, baseURL ?? "", theme);
      for (const url of [
        "/",
        "/runs/claude-code-capture-on",
        "/runs/opencode-before-fix/rollouts/0-0",
      ]) {
        await page.goto(url);
        await expectTheme(page, theme, true);
        const scheme = await page.evaluate(
          () => getComputedStyle(document.documentElement).colorScheme,
        );
        expect(scheme, url).toBe(theme);
      }
    });
  });
}

// Beyond contrast: every other WCAG 2.1 A and AA rule axe-core checks (ARIA roles and their
// parents, names, links told apart from their text by more than colour, …) on each kind of page,
// in the dark theme, as those rules do not depend on it (contrast, a third of axe's time on a page,
// is checked above); then the contrast of the two pages the checks above do not open (the signal
// ledger's charts, the group view) in either theme.
async function expectNoWcagViolations(page: Page, where: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  const axe = new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .disableRules(["color-contrast"]);
  await expectNoViolations(axe, "WCAG A/AA", where);
}

test("every kind of page meets axe's other WCAG 2.1 A and AA rules; the ledger and groups their contrast", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const inspector = "/runs/claude-code-capture-on/rollouts/0-0";
  const pages: Array<[string, string]> = [
    ["/", "runs-row"],
    ["/runs/opencode-before-fix", "rollout-row"],
    ["/runs/opencode-before-fix?text=error", "search-hit"],
    ["/runs/grpo-capture-on?group=_ng_task_index", "group-row"],
    ["/runs/signal-ledger", "rollout-row"],
    ...["tokens", "conversation", "chains", "call"].map((tab): [string, string] => [
      `${inspector}?tab=${tab}`,
      "verdict-bar",
    ]),
    ["/compare?a=grpo-capture-on&b=grpo-capture-off", "compare-headline"],
  ];
  for (const [url, shown] of pages) {
    await page.goto(url);
    await expect(page.getByTestId(shown).first()).toBeVisible({ timeout: 60_000 });
    await drawAll(page);
    await expectNoWcagViolations(page, url);
  }
  for (const theme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const url of ["/runs/signal-ledger", "/runs/grpo-capture-on?group=_ng_task_index"]) {
      await page.goto(url);
      await expectTheme(page, theme, false);
      await expect(page.getByTestId("run-title")).toBeVisible({ timeout: 60_000 });
      await drawAll(page);
      await expectNoContrastViolations(page, `${url} (${theme})`);
    }
  }
});
