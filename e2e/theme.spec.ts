import { expect, test, type Page } from "@playwright/test";

// The light and dark themes: with no choice the page follows the system's
// prefers-color-scheme; the top bar's choice switches at once, is remembered (the rl-theme cookie)
// across reloads and navigations, overrides the system, and reaches the first HTML (the server
// sets data-theme on <html>, so nothing flashes and no script runs first). Every check reads the
// computed background of <body>, not only the attribute.

/** --bg of app/globals.css in each theme (#f6f7f9, #0f1115). */
const BODY = { light: "rgb(246, 247, 249)", dark: "rgb(15, 17, 21)" } as const;
/** --panel, the top bar's background (#ffffff, #171a21). */
const TOPBAR = { light: "rgb(255, 255, 255)", dark: "rgb(23, 26, 33)" } as const;
const RUN = "/runs/opencode-before-fix";
type Theme = keyof typeof BODY;

async function expectPainted(page: Page, theme: Theme): Promise<void> {
  await expect(page.locator("body")).toHaveCSS("background-color", BODY[theme]);
  await expect(page.locator("header.topbar")).toHaveCSS("background-color", TOPBAR[theme]);
}

async function themeCookie(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === "rl-theme");
}

for (const system of ["light", "dark"] as const) {
  test.describe(`system preference ${system}`, () => {
    test.use({ colorScheme: system });

    test(`with no choice the page is ${system}`, async ({ page }) => {
      await page.goto(RUN);
      await expect(page.locator("html")).not.toHaveAttribute("data-theme", /./);
      await expect(page.getByTestId("theme-toggle")).toHaveValue("system");
      await expectPainted(page, system);
      // And it follows the system while the page is open.
      const other = system === "light" ? "dark" : "light";
      await page.emulateMedia({ colorScheme: other });
      await expectPainted(page, other);
    });
  });
}

test.describe("a chosen theme", () => {
  test.use({ colorScheme: "light" });

  test("switches at once, survives a reload and navigations, and overrides the system", async ({
    page,
  }) => {
    await page.goto(RUN);
    await expect(page.getByTestId("rollout-row").first()).toBeVisible();
    await expectPainted(page, "light");

    await page.getByTestId("theme-toggle").selectOption("dark");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expectPainted(page, "dark"); // the system still prefers light
    const cookie = await themeCookie(page);
    expect(cookie?.value).toBe("dark");
    expect(cookie?.path).toBe("/");
    expect(cookie?.sameSite).toBe("Lax");
    // Remembered for about a year (Max-Age 31536000 s), not for the session.
    const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(360);
    expect(days).toBeLessThan(370);

    await page.reload();
    await expect(page.getByTestId("theme-toggle")).toHaveValue("dark");
    await expectPainted(page, "dark");

    // A client-side navigation (the top bar's link) and a full one to another page.
    await page.getByTestId("nav-home").click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("runs-row").first()).toBeVisible();
    await expectPainted(page, "dark");
    await page.goto(`${RUN}/rollouts/0-0`);
    await expect(page.getByTestId("verdict-bar")).toBeVisible({ timeout: 60_000 });
    await expectPainted(page, "dark");
    await expect(page.getByTestId("theme-toggle")).toHaveValue("dark");
  });

  test("light overrides a dark system, and system hands back to the preference", async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(RUN);
    await expectPainted(page, "dark");
    await expect(page.getByTestId("theme-toggle")).toBeEnabled();
    await page.getByTestId("theme-toggle").selectOption("light");
    await expectPainted(page, "light");
    await page.reload();
    await expectPainted(page, "light");

    await page.getByTestId("theme-toggle").selectOption("system");
    await expect(page.locator("html")).not.toHaveAttribute("data-theme", /./);
    await expectPainted(page, "dark");
    expect(await themeCookie(page)).toBeUndefined();
    await page.reload();
    await expect(page.getByTestId("theme-toggle")).toHaveValue("system");
    await expectPainted(page, "dark");
  });

  test("the first HTML carries the choice: no script has to run before paint", async ({
    page,
    context,
    browser,
    baseURL,
  }) => {
    await context.addCookies([
      { name: "rl-theme", value: "dark", url: baseURL ?? "", sameSite: "Lax" },
    ]);
    // The document as the server sends it (the context's cookie goes with the request).
    const html = await (await page.request.get(RUN)).text();
    expect(html).toMatch(/<html[^>]*\bdata-theme="dark"/);
    // Scripts off: the page is dark from the HTML and the stylesheet alone.
    const bare = await browser.newContext({
      javaScriptEnabled: false,
      colorScheme: "light",
    });
    try {
      await bare.addCookies([
        { name: "rl-theme", value: "dark", url: baseURL ?? "", sameSite: "Lax" },
      ]);
      const still = await bare.newPage();
      await still.goto(`${baseURL ?? ""}${RUN}`); // a bare context has no baseURL
      await expect(still.locator("html")).toHaveAttribute("data-theme", "dark");
      await expectPainted(still, "dark");
      // Its choice waits for the script that keeps it: a select changed before it reverts.
      await expect(still.getByTestId("theme-toggle")).toBeDisabled();
    } finally {
      await bare.close();
    }
    // A stale or forged value is no theme: the page follows the system.
    await context.clearCookies();
    await context.addCookies([
      { name: "rl-theme", value: "blue", url: baseURL ?? "", sameSite: "Lax" },
    ]);
    await page.goto(RUN);
    await expect(page.locator("html")).not.toHaveAttribute("data-theme", /./);
    await expectPainted(page, "light");
  });
});
